import Foundation
import OnTheMapModel
@testable import OnTheMapServer
import Testing

/// Every error answer the server gives is an entry of the `APIError` catalogue (OnTheMapModel's
/// `APIError*.swift`), rendered in its path family's shape by one renderer, so that docs/API.md's
/// table of errors and the document's error schemas stay the whole story. This reads the server's
/// sources for the ways an answer gets built beside the catalogue: an `APIError` made on the spot or
/// altered after, entries kept elsewhere, an error body or an error status written by hand.
@Suite struct ErrorCatalogueTests {
    /// A way of building an error answer outside the catalogue, and the files where it belongs.
    struct Rule: Sendable {
        let what: String
        let pattern: String
        let allowedIn: Set<String>

        func matches(_ line: String) -> Bool {
            line.range(of: pattern, options: .regularExpression) != nil
        }
    }

    /// The catalogue's own files.
    static let catalogue: Set<String> = [
        "Sources/OnTheMapModel/APIError.swift",
        "Sources/OnTheMapModel/APIError+Admin.swift",
        "Sources/OnTheMapModel/APIError+Connections.swift",
        "Sources/OnTheMapModel/APIError+Courses.swift",
        "Sources/OnTheMapModel/APIError+LTI.swift",
    ]

    /// The family shapes (`PathFamily.errorBody`) and the one renderer of an entry to bytes
    /// (`JSONResponse.errorParts`, whose fallback body is for an encoding failure that cannot happen).
    static let renderer: Set<String> = [
        "Sources/OnTheMapServer/Routing/PathFamily.swift",
        "Sources/OnTheMapServer/Wire/JSONResponse.swift",
    ]

    static let errorStatusNames = [
        "badRequest", "unauthorized", "paymentRequired", "forbidden", "notFound", "methodNotAllowed", "notAcceptable",
        "requestTimeout", "conflict", "gone", "lengthRequired", "preconditionFailed", "contentTooLarge", "uriTooLong",
        "unsupportedMediaType", "unprocessableContent", "tooManyRequests", "requestHeaderFieldsTooLarge",
        "internalServerError", "notImplemented", "badGateway", "serviceUnavailable", "gatewayTimeout",
    ].joined(separator: "|")

    static let rules = [
        Rule(what: "an APIError made on the spot", pattern: #"\bAPIError\s*\("#, allowedIn: catalogue),
        Rule(what: "catalogue entries kept outside the catalogue", pattern: #"\bextension\s+APIError\b"#, allowedIn: catalogue),
        Rule(what: "an entry's headers changed after it was taken", pattern: #"\.(retryAfterSeconds|allowedMethods)\s*=[^=]"#,
             allowedIn: catalogue),
        Rule(what: "an error body written by hand", pattern: #"\bErrorBody\s*\(|\\?"error\\?"\s*:"#, allowedIn: renderer),
        Rule(what: "an error status written by hand",
             pattern: #"\b(status|code|statusCode)\s*:\s*(\.?[45][0-9][0-9]\b|\.("# + errorStatusNames + #")\b)"#,
             allowedIn: catalogue),
        // Hummingbird's plain 404 is the one the error middleware turns into the catalogue's own.
        Rule(what: "an HTTPError with its own status or text", pattern: #"\bHTTPError\s*\((?!\s*\.notFound\s*\))"#, allowedIn: []),
    ]

    /// Each rule's findings in one file's text, as "line: text".
    static func findings(of rule: Rule, in text: String) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().compactMap { index, line in
            let code = String(line)
            guard !code.trimmingCharacters(in: .whitespaces).hasPrefix("//"), rule.matches(code) else { return nil }
            return "\(index + 1): \(code.trimmingCharacters(in: .whitespaces))"
        }
    }

    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The Swift files of the server and of the model that holds the catalogue, relative to the root.
    static func scannedFiles() throws -> [String] {
        try ["Sources/OnTheMapServer", "Sources/OnTheMapModel"].flatMap { folder in
            let enumerator = try #require(FileManager.default.enumerator(atPath: root.appendingPathComponent(folder).path))
            return enumerator.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }.map { "\(folder)/\($0)" }
        }.sorted()
    }

    @Test func everyErrorAnswerComesFromTheCatalogue() throws {
        let files = try Self.scannedFiles()
        #expect(files.count > 50, "the server's sources are found from \(Self.root.path)")
        for file in files {
            let text = try String(contentsOf: Self.root.appendingPathComponent(file), encoding: .utf8)
            for rule in Self.rules where !rule.allowedIn.contains(file) {
                for finding in Self.findings(of: rule, in: text) {
                    Issue.record("\(file):\(finding): \(rule.what); add an entry to the APIError catalogue and throw it")
                }
            }
        }
    }

    /// The answers that were built beside the catalogue until it held them keep their bytes: the
    /// v1 family's body (the richest shape) and `Retry-After`.
    @Test(arguments: [
        (APIError.requestHeadTooLarge, #"{"code":107,"error":"The request's line or headers are too long.","status":431}"#, nil),
        (.requestTimeout, #"{"code":155,"error":"The request took too long to arrive; send it again.","status":408}"#, nil),
        (.methodNotImplemented, #"{"code":119,"error":"This method is not supported here.","status":501}"#, nil),
        (.unparseable("invalid chunk size"), #"{"code":107,"error":"The request could not be read: invalid chunk size.","status":400}"#, nil),
        (.tooManyConnections,
         #"{"code":1,"error":"The server has as many connections as it can hold; try again in a moment.","status":503}"#, "1"),
        (.tooManyConnectionsFromAddress,
         #"{"code":155,"error":"Too many connections from your network; close some and try again.","status":429}"#, "1"),
        (.geocoderLoading, #"{"code":1,"error":"The geocoder is still loading; try again in a moment.","status":503}"#, "1"),
        (.noPasswordToConfirm,
         #"{"code":119,"error":"This account signs in with a provider and has no password: sign in again to confirm it is you.","status":403}"#,
         nil),
        (.refusedByFramework(status: 422, message: "Unprocessable"), #"{"code":107,"error":"Unprocessable","status":422}"#, nil),
    ] as [(APIError, String, String?)])
    func theEntriesMovedIntoTheCatalogueKeepTheirBytes(error: APIError, body: String, retryAfter: String?) {
        let (headers, bytes) = JSONResponse.errorParts(error, family: .v1Locations)
        #expect(String(buffer: bytes) == body)
        #expect(headers[.retryAfter] == retryAfter)
    }

    /// Each rule catches the line it is written for and lets the catalogue's ordinary use through.
    @Test(arguments: [
        ("throw APIError(status: 403, code: ParseErrorCode.operationForbidden, message: \"No.\")", 0),
        ("extension APIError {", 1),
        ("error.retryAfterSeconds = 1", 2),
        ("error.allowedMethods = [\"GET\"]", 2),
        ("return try JSONResponse.make([\"error\": \"Too slow.\"], status: .serviceUnavailable)", 3),
        ("body.writeString(#\"{\"error\":\"No.\"}\"#)", 3),
        ("let body = ErrorBody(status: 400, code: nil, parameter: nil, error: \"No.\")", 3),
        ("return Response(status: .forbidden)", 4),
        ("HTTPResponse(status: .init(code: 431), headerFields: fields)", 4),
        ("throw HTTPError(.badRequest, message: \"No.\")", 5),
        ("throw HTTPError(.notFound, message: \"Gone.\")", 5),
    ])
    func eachRuleCatchesItsLine(line: String, rule: Int) {
        #expect(Self.findings(of: Self.rules[rule], in: line).count == 1, "\(Self.rules[rule].what): \(line)")
    }

    @Test(arguments: [
        "throw APIError.forbidden(\"Not your pin.\")",
        "if let retryAfter = error.retryAfterSeconds { headers[.retryAfter] = String(retryAfter) }",
        "return try JSONResponse.make(body, status: .created, headers: headers)",
        "if representation.isCurrentAtClient { return Response(status: .notModified, headers: headers) }",
        "guard let asset = asset(context) else { throw HTTPError(.notFound) }",
        "case .notFound: return .notFound(\"No such endpoint.\")",
        "if let error = event.error { object[\"error\"] = \"\\(error)\" }",
        "/// A 503 with `Retry-After`, as APIError(status: 503) would make it.",
    ])
    func theCataloguesOrdinaryUseIsLetThrough(line: String) {
        for rule in Self.rules {
            #expect(Self.findings(of: rule, in: line).isEmpty, "\(rule.what): \(line)")
        }
    }
}
