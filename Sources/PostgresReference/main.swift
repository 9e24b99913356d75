// Development tool for `make bench`: the Swift stack's own ceiling for an uncached page on
// PostgreSQL, so BENCHMARKS.md can tell the server's overhead from its libraries'. Bare Hummingbird
// (no middleware) and PostgresNIO at their leanest: one pool of 8 connections (the server's read
// pool), the page's query as a `PostgresPreparedStatement` run through `PostgresClient.execute`,
// each cell read once straight from its bytes (PostgresNIO's tuple decoding costs twice as much), the
// JSON written by `LocationJSON` (the server's own writer, so both send the same bytes). No sessions,
// limits, metrics, logging or timeouts.
//   postgres-reference PORT DATABASE-URL   (GET /v1/StudentLocation?limit=N&skip=N)
import Foundation
import Hummingbird
import OnTheMapModel
import PostgresNIO

/// The server's query for `?limit=N&skip=N&order=-updatedAt,objectId`, with the same partial-index filter.
struct LatestPage: PostgresPreparedStatement {
    static let sql = """
        SELECT object_id, unique_key, first_name, last_name, map_string, media_url, latitude, longitude, created_at, updated_at \
        FROM student_locations WHERE hidden_at IS NULL ORDER BY updated_at DESC, object_id ASC LIMIT $1 OFFSET $2
        """
    typealias Row = StudentLocation

    var limit: Int
    var skip: Int

    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 2)
        bindings.append(limit)
        bindings.append(skip)
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Row {
        var cells = row.makeIterator()
        func next() throws -> ByteBuffer {
            guard let cell = cells.next(), let bytes = cell.bytes else { throw PostgresDecodingError.Code.missingData }
            return bytes
        }
        func text() throws -> String { String(buffer: try next()) }
        func number<N: FixedWidthInteger>(_: N.Type) throws -> N {
            var bytes = try next()
            guard let value = bytes.readInteger(as: N.self) else { throw PostgresDecodingError.Code.failure }
            return value
        }
        return StudentLocation(
            objectId: try text(), uniqueKey: try text(), firstName: try text(), lastName: try text(), mapString: try text(),
            mediaURL: try text(), latitude: Double(bitPattern: try number(UInt64.self)), longitude: Double(bitPattern: try number(UInt64.self)),
            createdAt: try number(Int64.self), updatedAt: try number(Int64.self))
    }
}

let arguments = CommandLine.arguments
guard arguments.count == 3, let port = Int(arguments[1]) else {
    FileHandle.standardError.write(Data("usage: postgres-reference PORT DATABASE-URL\n".utf8))
    exit(2)
}
let url = URLComponents(string: arguments[2])
let configuration = PostgresClient.Configuration(
    host: url?.host ?? "127.0.0.1", port: url?.port ?? 5432, username: url?.user ?? "postgres", password: url?.password,
    database: url.map { String($0.path.dropFirst()) }, tls: .disable)
var pool = configuration
pool.options.maximumConnections = 8
let client = PostgresClient(configuration: pool)

let router = Router()
router.get("/v1/StudentLocation") { request, _ -> Response in
    let limit = request.uri.queryParameters.get("limit", as: Int.self) ?? 100
    let skip = request.uri.queryParameters.get("skip", as: Int.self) ?? 0
    var page: [StudentLocation] = []
    page.reserveCapacity(limit)
    for try await location in try await client.execute(LatestPage(limit: limit, skip: skip)) { page.append(location) }
    let body = ByteBuffer(bytes: LocationJSON.page(page, count: nil))
    return Response(status: .ok, headers: [.contentType: "application/json; charset=utf-8"], body: .init(byteBuffer: body))
}
let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: port)), services: [client])
try await app.runService()
