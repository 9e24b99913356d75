import Logging
@testable import OnTheMapPostgres
import Testing

/// When no connection comes in time, the reason says what the pool met when it last
/// tried to connect (PostgresClient tells only its background logger), in an operator's words.
@Suite struct ConnectionAttemptsTests {
    @Test func theReasonIsTheServersMessageOrTheSocketsFailure() {
        let server = #"PSQLError(code: server, serverInfo: [sqlState: 57P03, message: the database system is starting up, routine: ProcessStartupPacket])"#
        #expect(ConnectionAttempts.reason(of: server) == "the database system is starting up")
        let refused = #"PSQLError(code: connectionError, underlying: NIOConnectionError(host: "127.0.0.1", port: 5432, dnsAError: nil, connectionErrors: [connect(descriptor:addr:size:): Connection refused (errno: 111)]))"#
        #expect(ConnectionAttempts.reason(of: refused) == "connection refused")
    }

    @Test func aFailureLoggedByThePoolIsNotedAndStillLogged() {
        let attempts = ConnectionAttempts()
        #expect(attempts.lastFailureDescription == "")
        let seen = Seen()
        var logger = Logger(label: "test") { _ in seen }
        logger.logLevel = .warning
        let pool = attempts.poolLogger(logger)
        pool.info("Connection creation failed", metadata: ["psql_error": "PSQLError(code: connectionError, ... Connection refused ...)"])
        pool.warning("something else")
        #expect(attempts.lastFailureDescription.hasPrefix("; last connection attempt: connection refused ("))
        #expect(seen.messages == ["something else"], "info stays below the service's level; the rest gets through")
        attempts.connected()
        #expect(attempts.lastFailureDescription == "", "once connected, an old failure explains nothing")
    }
}

private final class Seen: LogHandler, @unchecked Sendable {
    var messages: [String] = []
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace
    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }
    func log(event: LogEvent) { messages.append(event.message.description) }
}
