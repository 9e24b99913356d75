import Hummingbird
import Logging
import OnTheMapModel

/// One log line per request, after its answer: method, path, status and time taken, with nothing
/// that grants access (docs/API.md, "Logs"). No header is logged (so neither `Authorization` nor a
/// cookie), and the path is redacted by `LogRedaction`. Written by `AnswerFinish`, for every road.
enum RequestLog {
    /// Requests are logged at info: `--log-level notice` (or higher) leaves them out.
    static let defaultLevel = Logger.Level.info

    static func write(to logger: Logger, level: Logger.Level, method: String, uri: String, status: Int, milliseconds: Double) {
        logger.log(level: level, "Request", metadata: [
            "hb.request.method": .string(method),
            "hb.request.path": .string(LogRedaction.uri(uri)),
            "status": .stringConvertible(status),
            "ms": .string(String(format: "%.1f", milliseconds)),
        ])
    }
}

/// What a logged URI must not show: the `{id}` of `/v1/users/{id}` and `/api/users/{id}`, which
/// legacy apps fill with their session id, anything shaped like a session token (32 or more
/// hexadecimal characters) anywhere in the path or query, the values of the query parameters a
/// provider's sign-in passes through the browser (`code`, `state`), and free text that may be
/// where a student lives: what they asked the geocoder (`q`) and what they searched the list for
/// (`where`, which may name a `mapString`).
enum LogRedaction {
    static let mark = "[redacted]"
    static let secretParameters: Set<Substring> = ["code", "state", "q", "where"]

    static func uri(_ uri: String) -> String {
        let redacted = pathAndTokens(uri)
        guard let question = redacted.firstIndex(of: "?") else { return redacted }
        let query = redacted[redacted.index(after: question)...].split(separator: "&", omittingEmptySubsequences: false).map { pair in
            guard let equals = pair.firstIndex(of: "="), secretParameters.contains(pair[..<equals]) else { return String(pair) }
            return pair[...equals] + mark
        }
        return redacted[...question] + query.joined(separator: "&")
    }

    private static func pathAndTokens(_ uri: String) -> String {
        var parts: [Substring] = []
        var afterUsers = false
        for part in uri.split(separator: "/", omittingEmptySubsequences: false) {
            if afterUsers {
                // The id, and a query after it: `/v1/users/{id}?…` keeps only its shape.
                parts.append(part.contains("?") ? Substring(mark + "?" + mark) : Substring(mark))
                afterUsers = false
                continue
            }
            parts.append(Substring(redactingTokens(part)))
            afterUsers = part == "users" && (parts.count == 3 && (parts[1] == "v1" || parts[1] == "api"))
        }
        return parts.joined(separator: "/")
    }

    /// `text` with every run of 32 or more hexadecimal characters replaced.
    static func redactingTokens(_ text: Substring) -> String {
        var result = ""
        var run = ""
        func flush() {
            result += run.count >= 32 ? mark : run
            run = ""
        }
        for character in text {
            if character.isHexDigit { run.append(character) } else { flush(); result.append(character) }
        }
        flush()
        return result
    }
}
