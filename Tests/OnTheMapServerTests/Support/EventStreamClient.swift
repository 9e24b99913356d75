import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// A Server-Sent Events reader for the live test server, as an EventSource would read it: the
/// answer's head, then events one at a time (comment lines skipped).
final class EventStreamClient: @unchecked Sendable {
    struct Event: Equatable {
        var id: String?
        var name: String
        var data: String

        /// The data as a JSON object.
        func object() throws -> [String: Any] {
            guard let object = try JSONSerialization.jsonObject(with: Data(data.utf8)) as? [String: Any] else {
                throw TestFailure("not a JSON object: \(data)")
            }
            return object
        }
    }

    let status: Int
    let headers: HTTPHeaders
    private var body: HTTPClientResponse.Body.AsyncIterator
    private var buffer = ""

    /// Opens the stream at `path` on `port`, with `headers` (`Last-Event-ID`, `X-Forwarded-For`).
    init(port: Int, path: String = "/v1/StudentLocation/events", headers: [(String, String)] = []) async throws {
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)\(path)")
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(300))
        status = Int(response.status.code)
        self.headers = response.headers
        body = response.body.makeAsyncIterator()
    }

    /// The next event, or nil when the server ended the stream. Fails after `timeout`.
    func next(timeout: Duration = .seconds(30)) async throws -> Event? {
        while true {
            if let event = takeEvent() { return event }
            let chunk = try await withThrowingTaskGroup(of: ByteBuffer?.self) { group in
                group.addTask { [self] in try await body.next() }
                group.addTask {
                    try await Task.sleep(for: timeout)
                    throw TestFailure("no event within \(timeout)")
                }
                defer { group.cancelAll() }
                return try await group.next()!
            }
            guard let chunk else { return nil }
            buffer += String(buffer: chunk)
        }
    }

    /// Reads events until one named `name`, returning it and those before it.
    func events(through name: String, timeout: Duration = .seconds(30)) async throws -> [Event] {
        var events: [Event] = []
        while let event = try await next(timeout: timeout) {
            events.append(event)
            if event.name == name { return events }
        }
        throw TestFailure("the stream ended before \(name): \(events)")
    }

    /// One complete event from the buffer (blocks of lines ending with an empty line).
    private func takeEvent() -> Event? {
        while let end = buffer.range(of: "\n\n") {
            let block = buffer[..<end.lowerBound]
            buffer = String(buffer[end.upperBound...])
            var event = Event(id: nil, name: "message", data: "")
            var hasData = false
            for line in block.split(separator: "\n", omittingEmptySubsequences: false) {
                if line.hasPrefix(":") { continue }
                let parts = line.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
                let field = String(parts[0])
                let value = parts.count > 1 ? String(parts[1].drop { $0 == " " }) : ""
                switch field {
                case "id": event.id = value
                case "event": event.name = value
                case "data": event.data += (hasData ? "\n" : "") + value; hasData = true
                default: break
                }
            }
            if hasData { return event }
        }
        return nil
    }
}
