internal import Foundation
import HTTPTypes
internal import OpenAPIRuntime
internal import OpenAPIURLSession
#if canImport(FoundationNetworking)
internal import FoundationNetworking
#endif

/// The transport `liveUpdates()` uses when none is given. On Apple platforms URLSessionTransport
/// hands a body over as it arrives; on Linux it waits for the whole body, which an event stream never
/// finishes, so there a small URLSession delegate passes each chunk on as it comes.
enum EventStreamTransport {
    static var platformDefault: any ClientTransport {
        #if canImport(FoundationNetworking)
        StreamingURLSessionTransport()
        #else
        URLSessionTransport()
        #endif
    }
}

#if canImport(FoundationNetworking)
/// A GET whose response body is delivered chunk by chunk (FoundationNetworking calls
/// `didReceive data` as curl reads). Only what the event stream needs: no request body.
struct StreamingURLSessionTransport: ClientTransport {
    /// How long the stream may stay silent before it counts as dead: three of the server's 20 s
    /// heartbeats. A phone that slept or changed networks hears nothing more on its old connection;
    /// URLSession's timeout is reset by every byte, so it fires only then, and the live sequence
    /// reconnects.
    var silenceLimit: TimeInterval = 60

    func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws -> (HTTPResponse, HTTPBody?) {
        guard var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: false) else { throw URLError(.badURL) }
        let path = request.path ?? "/"
        let query = path.firstIndex(of: "?")
        components.percentEncodedPath += query.map { String(path[..<$0]) } ?? path
        components.percentEncodedQuery = query.map { String(path[path.index(after: $0)...]) }
        guard let url = components.url else { throw URLError(.badURL) }
        var urlRequest = URLRequest(url: url)
        urlRequest.httpMethod = request.method.rawValue
        urlRequest.timeoutInterval = silenceLimit
        for field in request.headerFields { urlRequest.addValue(field.value, forHTTPHeaderField: field.name.canonicalName) }

        let stream = ChunkStream()
        let session = URLSession(configuration: .ephemeral, delegate: stream, delegateQueue: nil)
        let task = session.dataTask(with: urlRequest)
        stream.onEnd = { task.cancel(); session.finishTasksAndInvalidate() }
        task.resume()
        let response = try await withTaskCancellationHandler {
            try await stream.response()
        } onCancel: {
            task.cancel()
        }
        var fields = HTTPFields()
        for (name, value) in response.allHeaderFields {
            if let text = name as? String, let name = HTTPField.Name(text) { fields.append(HTTPField(name: name, value: "\(value)")) }
        }
        return (HTTPResponse(status: HTTPResponse.Status(code: response.statusCode, reasonPhrase: ""), headerFields: fields),
                HTTPBody(stream.body, length: .unknown, iterationBehavior: .single))
    }
}

/// The delegate: the response head through a continuation, the body through an AsyncThrowingStream.
private final class ChunkStream: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let lock = NSLock()
    private var head: CheckedContinuation<HTTPURLResponse, any Error>?
    private var headResult: Result<HTTPURLResponse, any Error>?
    let body: AsyncThrowingStream<ArraySlice<UInt8>, any Error>
    private let chunks: AsyncThrowingStream<ArraySlice<UInt8>, any Error>.Continuation
    /// Cancels the task when the reader stops reading.
    var onEnd: (@Sendable () -> Void)? {
        didSet { chunks.onTermination = { [onEnd] _ in onEnd?() } }
    }

    override init() {
        (body, chunks) = AsyncThrowingStream.makeStream(of: ArraySlice<UInt8>.self)
    }

    func response() async throws -> HTTPURLResponse {
        try await withCheckedThrowingContinuation { continuation in
            lock.lock()
            if let headResult {
                lock.unlock()
                continuation.resume(with: headResult)
            } else {
                head = continuation
                lock.unlock()
            }
        }
    }

    private func answer(_ result: Result<HTTPURLResponse, any Error>) {
        lock.lock()
        guard headResult == nil else { lock.unlock(); return }
        headResult = result
        let waiting = head
        head = nil
        lock.unlock()
        waiting?.resume(with: result)
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        if let response = response as? HTTPURLResponse {
            answer(.success(response))
        } else {
            answer(.failure(URLError(.badServerResponse)))
        }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        chunks.yield(ArraySlice(data))
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        answer(.failure(error ?? URLError(.badServerResponse)))
        if let error { chunks.finish(throwing: error) } else { chunks.finish() }
    }
}
#endif
