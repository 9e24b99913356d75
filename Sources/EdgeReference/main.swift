// Development tool for `make bench`: Hummingbird with no middleware and no edge handlers, serving
// a file's bytes, so BENCHMARKS.md can show the framework's own ceiling beside the server and nginx.
//   edge-reference PORT FILE   (GET /plain answers FILE; GET /gzip answers FILE.gz as gzip)
import Foundation
import Hummingbird

let arguments = CommandLine.arguments
guard arguments.count == 3, let port = Int(arguments[1]) else {
    FileHandle.standardError.write(Data("usage: edge-reference PORT FILE\n".utf8))
    exit(2)
}
let plain = ByteBuffer(data: try Data(contentsOf: URL(fileURLWithPath: arguments[2])))
let gzip = ByteBuffer(data: try Data(contentsOf: URL(fileURLWithPath: arguments[2] + ".gz")))
let router = Router()
router.get("/plain") { _, _ in
    Response(status: .ok, headers: [.contentType: "application/json; charset=utf-8"], body: .init(byteBuffer: plain))
}
router.get("/gzip") { _, _ in
    Response(status: .ok, headers: [.contentType: "application/json; charset=utf-8", .contentEncoding: "gzip"], body: .init(byteBuffer: gzip))
}
let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: port)))
try await app.runService()
