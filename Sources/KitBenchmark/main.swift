// `make bench`: how much OnTheMapKit adds to a call over a bare URLSession call. Each fetches the
// latest 100 pins from the same server one call at a time, as an app does, in alternating rounds
// so that the machine's drift falls on all alike. The bare call decodes the JSON into Codable
// structs with the dates left as strings, the least an app can do; the façade also reads the
// dates. Between them, the generated client alone (swift-openapi-generator's code over
// swift-openapi-urlsession's transport, no middleware, no façade) tells the façade's own cost from
// that of the generated stack under it.
//   kit-bench BASE_URL [calls per round] [rounds]
import Foundation
import OnTheMapKit
import OpenAPIURLSession
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

struct BarePage: Decodable {
    struct Pin: Decodable {
        var objectId, uniqueKey, firstName, lastName, mapString, mediaURL, createdAt, updatedAt: String
        var latitude, longitude: Double
    }
    var results: [Pin]
}

let arguments = CommandLine.arguments
guard arguments.count >= 2, let base = URL(string: arguments[1]) else {
    FileHandle.standardError.write(Data("usage: kit-bench BASE_URL [calls] [rounds]\n".utf8))
    exit(2)
}
let calls = arguments.count > 2 ? Int(arguments[2]) ?? 1000 : 1000
let rounds = arguments.count > 3 ? Int(arguments[3]) ?? 5 : 5
let listURL = base.appendingPathComponent("v1/StudentLocation").appending(queryItems: [
    URLQueryItem(name: "limit", value: "100"), URLQueryItem(name: "order", value: "-updatedAt"),
])

/// Wall time and this process's CPU time (the server is another process) for `calls` calls.
func measure(_ call: () async throws -> Int) async throws -> (wall: Double, cpu: Double) {
    func cpuSeconds() -> Double {
        var usage = rusage()
        #if canImport(Glibc)
        getrusage(RUSAGE_SELF.rawValue, &usage)
        #else
        getrusage(RUSAGE_SELF, &usage)
        #endif
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }
    let cpuBefore = cpuSeconds()
    let started = ContinuousClock.now
    for _ in 0..<calls {
        guard try await call() == 100 else { throw CocoaError(.coderInvalidValue) }
    }
    let wall = ContinuousClock.now - started
    return (Double(wall.components.seconds) + Double(wall.components.attoseconds) / 1e18, cpuSeconds() - cpuBefore)
}

let session = URLSession.shared
let decoder = JSONDecoder()
func bare() async throws -> Int {
    let (data, response) = try await session.data(for: URLRequest(url: listURL))
    guard (response as? HTTPURLResponse)?.statusCode == 200 else { throw URLError(.badServerResponse) }
    return try decoder.decode(BarePage.self, from: data).results.count
}
let client = OnTheMapClient(baseURL: base)
func facade() async throws -> Int { try await client.latest(limit: 100).count }
let plain = Client(serverURL: base, transport: URLSessionTransport())
func generated() async throws -> Int { try await plain.v1List(query: .init(limit: "100", order: "-updatedAt")).ok.body.json.results.count }

// One round of each first, unmeasured: connections opened, code paged in.
_ = try await measure(bare)
_ = try await measure(generated)
_ = try await measure(facade)
var bareRounds: [(wall: Double, cpu: Double)] = []
var generatedRounds: [(wall: Double, cpu: Double)] = []
var facadeRounds: [(wall: Double, cpu: Double)] = []
for _ in 0..<rounds {
    bareRounds.append(try await measure(bare))
    generatedRounds.append(try await measure(generated))
    facadeRounds.append(try await measure(facade))
}
func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
let bareWall = median(bareRounds.map(\.wall)), facadeWall = median(facadeRounds.map(\.wall))
let bareCPU = median(bareRounds.map(\.cpu)), facadeCPU = median(facadeRounds.map(\.cpu))
let generatedWall = median(generatedRounds.map(\.wall)), generatedCPU = median(generatedRounds.map(\.cpu))
func perCall(_ seconds: Double) -> String { String(format: "%.3f ms", seconds / Double(calls) * 1000) }
func change(_ after: Double, _ before: Double) -> String { String(format: "%+.1f%%", (after / before - 1) * 100) }
print("| bare URLSession + JSONDecoder | \(perCall(bareWall)) | \(perCall(bareCPU)) |")
print("| generated client alone (URLSessionTransport) | \(perCall(generatedWall)) | \(perCall(generatedCPU)) |")
print("| OnTheMapClient.latest(limit: 100) | \(perCall(facadeWall)) | \(perCall(facadeCPU)) |")
print("| OnTheMapKit over the bare call | \(change(facadeWall, bareWall)) | \(change(facadeCPU, bareCPU)) |")
print("| of which the façade over the generated client | \(change(facadeWall, generatedWall)) | \(change(facadeCPU, generatedCPU)) |")
