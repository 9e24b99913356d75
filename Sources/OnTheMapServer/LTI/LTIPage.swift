import Hummingbird
import OnTheMapModel

/// The page a launch that opened no map answers with: a title and the catalogue entry's words,
/// which say what to do, for a student in a learning platform's frame (the reason goes to the
/// server's log). No script; the app's stylesheet. It may be framed by `frameAncestors` only (the
/// platform's origins, `LTIFrame`): platforms show a launch in a frame, and the page says why
/// there instead of an empty frame.
enum LTIPage {
    static func refusal(_ failure: LTILaunchFailure, frameAncestors: String = "'none'") -> Response {
        var answer = page(failure)
        answer.headers[.contentSecurityPolicy] = ContentSecurityPolicy.header(tiles: nil, frameAncestors: frameAncestors)
        return answer
    }

    private static func page(_ failure: LTILaunchFailure) -> Response {
        switch failure {
        case .unknownPlatform: page(title: "This learning platform is not set up", .ltiUnknownPlatform)
        case .expired, .otherBrowser: page(title: "This launch has expired", .ltiLaunchExpired)
        case .invalidToken, .invalidMessage, .unknownDeployment, .anonymous: page(title: "This launch could not be checked", .ltiLaunchNotChecked)
        case .noContext: page(title: "Open On The Map from a course", .ltiNoCourse)
        case .deepLinkingForInstructors: page(title: "Only instructors add the map", .ltiDeepLinkingForInstructors)
        case .courseNotSetUp: page(title: "Your instructor has not set up this map yet", .ltiCourseNotSetUp)
        case .accountDisabled: page(title: "Your account is disabled", .accountDisabled)
        case .platformUnavailable: page(title: "The learning platform did not answer", .ltiPlatformUnavailable)
        }
    }

    static var notSetUp: Response { page(title: "LTI is not set up on this server", .ltiNotSetUp) }

    static func page(title: String, _ error: APIError, frameAncestors: String? = nil) -> Response {
        var answer = html(title: title, status: HTTPResponse.Status(code: error.status), body: "<p>\(escaped(error.message))</p>")
        if let frameAncestors { answer.headers[.contentSecurityPolicy] = ContentSecurityPolicy.header(tiles: nil, frameAncestors: frameAncestors) }
        return answer
    }

    /// The Deep Linking picker: a new map for the platform's course (first, so that Enter in its
    /// title makes it), or one of the maps the instructor teaches. One form, posted to this server.
    static func picker(_ choice: LTILaunchService.DeepLinkingChoice) -> Response {
        let request = "<input type=\"hidden\" name=\"request\" value=\"\(escaped(choice.request))\">"
        var body = """
            <p>Choose the map this link opens. Students who open it land on the map, signed in.</p>
            <form id="lti-deep-link" method="post" action="\(LTIPaths.deepLink)">\(request)
            <div class="field"><label for="lti-new-title">A new map for this course</label>
            <input id="lti-new-title" name="title" maxlength="120" value="\(escaped(choice.suggestedTitle))"></div>
            <button class="button primary wide" type="submit" name="create" value="1">Create the map</button>
            """
        if !choice.courses.isEmpty {
            body += "<h2>Or one of your maps</h2><ul class=\"lti-choices\">"
            for course in choice.courses {
                body += "<li><button class=\"button ghost wide\" type=\"submit\" name=\"course\" value=\"\(course.slug.rawValue)\">\(escaped(course.title))</button></li>"
            }
            body += "</ul>"
        }
        body += "</form>"
        var answer = html(title: "Add a class map to your course", status: .ok, body: body)
        answer.headers[.contentSecurityPolicy] = ContentSecurityPolicy.header(tiles: nil, frameAncestors: choice.frameAncestors)
        return answer
    }

    /// The answer on its way back to the platform: a form of the signed `JWT` to its return URL,
    /// sent at once by /lti-return.js (kept outside /js/, which holds the app's modules), with a
    /// button for a browser without scripts.
    static func returnToPlatform(_ answer: LTILaunchService.DeepLinkingAnswer) -> Response {
        let body = """
            <p>The link to the map is on its way to your course.</p>
            <form id="lti-deep-link-return" method="post" action="\(escaped(answer.returnURL))">
            <input type="hidden" name="JWT" value="\(escaped(answer.jwt))">
            <button class="button primary wide" type="submit">Back to the course</button></form>
            <script src="/lti-return.js"></script>
            """
        var page = html(title: "Adding the map to your course", status: .ok, body: body)
        page.headers[.contentSecurityPolicy] = ContentSecurityPolicy.header(
            tiles: nil, frameAncestors: answer.frameAncestors, formActions: [LTIFrame.origin(of: answer.returnURL)].compactMap { $0 })
        return page
    }

    private static func html(title: String, status: HTTPResponse.Status, body: String) -> Response {
        let html = """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(escaped(title)) · On The Map</title><link rel="stylesheet" href="/app.css"></head>
            <body><main class="auth-screen lti-page"><div class="auth-card"><h1>\(escaped(title))</h1>\(body)</div></main></body></html>
            """
        return Response(
            status: status, headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: html)))
    }

    static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
            .replacingOccurrences(of: "\"", with: "&quot;")
    }
}
