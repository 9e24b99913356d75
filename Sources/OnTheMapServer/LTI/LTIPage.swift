import Hummingbird
import OnTheMapModel

/// The page a launch that opened no map answers with: a title and the catalogue entry's words,
/// which say what to do, for a student in a learning platform's frame (the reason goes to the
/// server's log). No script; the app's stylesheet.
enum LTIPage {
    static func refusal(_ failure: LTILaunchFailure) -> Response {
        switch failure {
        case .unknownPlatform: page(title: "This learning platform is not set up", .ltiUnknownPlatform)
        case .expired: page(title: "This launch has expired", .ltiLaunchExpired)
        case .invalidToken, .invalidMessage, .unknownDeployment, .anonymous: page(title: "This launch could not be checked", .ltiLaunchNotChecked)
        case .noContext: page(title: "Open On The Map from a course", .ltiNoCourse)
        case .deepLinkingNotYet: page(title: "Add On The Map as a link", .ltiDeepLinkingNotYet)
        case .courseNotSetUp: page(title: "Your instructor has not set up this map yet", .ltiCourseNotSetUp)
        case .accountDisabled: page(title: "Your account is disabled", .accountDisabled)
        case .platformUnavailable: page(title: "The learning platform did not answer", .ltiPlatformUnavailable)
        }
    }

    static var notSetUp: Response { page(title: "LTI is not set up on this server", .ltiNotSetUp) }

    static func page(title: String, _ error: APIError) -> Response {
        let html = """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(escaped(title)) · On The Map</title><link rel="stylesheet" href="/app.css"></head>
            <body><main class="lti-page"><h1>\(escaped(title))</h1><p>\(escaped(error.message))</p></main></body></html>
            """
        return Response(
            status: HTTPResponse.Status(code: error.status), headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: html)))
    }

    static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
            .replacingOccurrences(of: "\"", with: "&quot;")
    }
}
