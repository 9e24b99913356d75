import Hummingbird
import NIOCore

extension ResponseBody {
    /// The body's bytes, taken instead of sent (for a body known to be small: compressed, or kept
    /// as an idempotent answer).
    func collected() async throws -> ByteBuffer {
        let collector = BodyCollector()
        try await write(collector)
        return collector.buffer
    }
}

/// Takes a body's bytes instead of sending them.
private final class BodyCollector: ResponseBodyWriter {
    var buffer = ByteBuffer()
    func write(_ part: ByteBuffer) async throws {
        var part = part
        buffer.writeBuffer(&part)
    }
    func finish(_ trailingHeaders: HTTPFields?) async throws {}
}
