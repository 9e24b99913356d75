#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import OnTheMapTestSupport

/// A plain TCP connection to the live test server, for what an HTTP client library hides: sending
/// a request and hanging up before the answer, or reading several answers off one connection.
/// Its blocking reads run on a thread of their own, never on the concurrency pool that the server in
/// the same process needs (two tests blocked there at once would starve it).
final class RawConnection: @unchecked Sendable {
    private let socketDescriptor: Int32
    private var isOpen = true

    init(port: Int) throws {
        socketDescriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socketDescriptor >= 0 else { throw TestFailure("socket() failed: \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socketDescriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            Glibc.close(socketDescriptor)
            throw TestFailure("connect() failed: \(errno)")
        }
        // A read gives up after 5 minutes rather than hang a test (a machine running every suite at once
        // can be that slow to schedule the server).
        var timeout = timeval(tv_sec: 300, tv_usec: 0)
        setsockopt(socketDescriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close() }

    /// Sends `request` on a new connection and returns every byte until the server closes it.
    static func exchange(port: Int, _ request: [UInt8]) async throws -> [UInt8] {
        let connection = try RawConnection(port: port)
        try connection.send(bytes: request)
        return try await connection.readUntilClosed()
    }

    func send(_ text: String) throws { try send(bytes: Array(text.utf8)) }

    func send(bytes: [UInt8]) throws {
        var sent = 0
        while sent < bytes.count {
            let written = bytes[sent...].withUnsafeBytes { Glibc.send(socketDescriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard written > 0 else { throw TestFailure("send() failed: \(errno)") }
            sent += written
        }
    }

    /// Reads one answer with a `Content-Length` body; returns its status line and body.
    func readResponse() async throws -> (statusLine: String, body: String) {
        try await onItsOwnThread { try self.blockingReadResponse() }
    }

    /// Everything the server sends until it closes the connection.
    func readUntilClosed() async throws -> [UInt8] {
        try await onItsOwnThread { try self.blockingReadUntilClosed() }
    }

    private func blockingReadResponse() throws -> (statusLine: String, body: String) {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            if let headEnd = received.firstRange(of: Array("\r\n\r\n".utf8)) {
                let head = String(decoding: received[..<headEnd.lowerBound], as: UTF8.self)
                let lines = head.components(separatedBy: "\r\n")
                let length = lines.dropFirst().first { $0.lowercased().hasPrefix("content-length:") }
                    .flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) } ?? 0
                if received.count - headEnd.upperBound >= length {
                    let body = String(decoding: received[headEnd.upperBound..<(headEnd.upperBound + length)], as: UTF8.self)
                    return (lines[0], body)
                }
            }
            let count = recv(socketDescriptor, &buffer, buffer.count, 0)
            guard count > 0 else { throw TestFailure("the connection ended before a whole answer (recv \(count), errno \(errno))") }
            received.append(contentsOf: buffer[0..<count])
        }
    }

    private func blockingReadUntilClosed() throws -> [UInt8] {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = recv(socketDescriptor, &buffer, buffer.count, 0)
            if count == 0 { return received }
            guard count > 0 else {
                if errno == ECONNRESET { return received }
                throw TestFailure("recv failed before the server closed (errno \(errno)); got \(received.count) bytes")
            }
            received.append(contentsOf: buffer[0..<count])
        }
    }

    /// Hangs up, as a browser does when its tab is closed.
    func close() {
        guard isOpen else { return }
        isOpen = false
        Glibc.close(socketDescriptor)
    }
}
