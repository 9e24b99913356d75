// `make bench`: how much OnTheMapKit adds to a call over a bare URLSession call. Each fetches the
// latest 100 pins from the same server one call at a time, as an app does, the kinds of call
// interleaved call by call so that the machine's drift falls on all alike. Two bare calls: one
// reads the dates as the façade does (the same work, the same values), one leaves them as strings,
// the least an app can do. The generated client alone (swift-openapi-generator's code over
// swift-openapi-urlsession's transport, no middleware, no façade) tells the façade's own cost from
// that of the generated stack under it.
//   kit-bench BASE_URL [calls per round] [rounds] [bare|generated|facade|canned]
// With bare, generated or facade it runs that call alone, for a profiler, and prints its figures.
// With canned it prints the CPU per call of the package's own work, without the network: every
// call answered in-process with one list fetched beforehand, against JSONDecoder alone on a copy.
import Foundation
import OnTheMapKit
import OpenAPIURLSession
import OpenAPIRuntime
import HTTPTypes
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What the bare call decodes when it also reads the dates: the same values the façade returns.
struct BarePageWithDates: Decodable {
    struct Pin: Decodable {
        var objectId, uniqueKey, firstName, lastName, mapString, mediaURL: String
        var createdAt, updatedAt: Date
        var latitude, longitude: Double
    }
    var results: [Pin]
}

struct BarePage: Decodable {
    struct Pin: Decodable {
        var objectId, uniqueKey, firstName, lastName, mapString, mediaURL, createdAt, updatedAt: String
        var latitude, longitude: Double
    }
    var results: [Pin]
}

let arguments = CommandLine.arguments
guard arguments.count >= 2, let base = URL(string: arguments[1]) else {
    FileHandle.standardError.write(Data("usage: kit-bench BASE_URL [calls] [rounds] [bare|generated|facade|canned]\n".utf8))
    exit(2)
}
let calls = arguments.count > 2 ? Int(arguments[2]) ?? 1000 : 1000
let rounds = arguments.count > 3 ? Int(arguments[3]) ?? 5 : 5
let listURL = base.appendingPathComponent("v1/StudentLocation").appending(queryItems: [
    URLQueryItem(name: "limit", value: "100"), URLQueryItem(name: "order", value: "-updatedAt"),
])

/// This process's CPU time, all threads (the server is another process).
func cpuSeconds() -> Double {
    var usage = rusage()
    #if canImport(Glibc)
    getrusage(RUSAGE_SELF.rawValue, &usage)
    #else
    getrusage(RUSAGE_SELF, &usage)
    #endif
    return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
}

typealias Figures = (wall: Double, cpu: Double)

/// Wall and CPU time of `count` calls of each of `calls`, interleaved one call at a time (the
/// order turning with every step), so that the machine's drift, which on a shared machine moves
/// single rounds by ±10%, falls on every kind of call alike.
func measureInterleaved(_ calls: [() async throws -> Int], count: Int) async throws -> [Figures] {
    var totals = Array(repeating: Figures(wall: 0, cpu: 0), count: calls.count)
    for step in 0..<count {
        for offset in 0..<calls.count {
            let index = (step + offset) % calls.count
            let cpuBefore = cpuSeconds()
            let started = ContinuousClock.now
            guard try await calls[index]() == 100 else { throw CocoaError(.coderInvalidValue) }
            let wall = ContinuousClock.now - started
            totals[index].wall += Double(wall.components.seconds) + Double(wall.components.attoseconds) / 1e18
            totals[index].cpu += cpuSeconds() - cpuBefore
        }
    }
    return totals
}

/// The median round of each kind of call.
func rounds(of calls: [() async throws -> Int], count: Int, rounds: Int) async throws -> (medians: [Figures], all: [[Figures]]) {
    _ = try await measureInterleaved(calls, count: max(count / 10, 10))  // connections opened, code paged in
    var all: [[Figures]] = []
    for _ in 0..<rounds { all.append(try await measureInterleaved(calls, count: count)) }
    func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
    let medians = calls.indices.map { index in Figures(wall: median(all.map { $0[index].wall }), cpu: median(all.map { $0[index].cpu })) }
    return (medians, all)
}

let session = URLSession.shared
let decoder = JSONDecoder()
/// The dates as an app reads them with Foundation alone: ISO 8601 with milliseconds, which
/// JSONDecoder's own `.iso8601` strategy refuses.
let datesDecoder: JSONDecoder = {
    let decoder = JSONDecoder()
    let format = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
    decoder.dateDecodingStrategy = .custom { try format.parse($0.singleValueContainer().decode(String.self)) }
    return decoder
}()
/// The list as a bare URLSession call fetches it.
func fetchList() async throws -> Data {
    let (data, response) = try await session.data(for: URLRequest(url: listURL))
    guard (response as? HTTPURLResponse)?.statusCode == 200 else { throw URLError(.badServerResponse) }
    return data
}
func bareWithDates() async throws -> Int { try datesDecoder.decode(BarePageWithDates.self, from: try await fetchList()).results.count }
func bare() async throws -> Int { try decoder.decode(BarePage.self, from: try await fetchList()).results.count }
let client = OnTheMapClient(baseURL: base)
func facade() async throws -> Int { try await client.latest(limit: 100).count }
let plain = GeneratedList(serverURL: base, transport: URLSessionTransport())
func generated() async throws -> Int { try await plain.latest100() }

/// A transport that answers every call with one list fetched beforehand: the package's own work
/// (request, middleware, conversions, decoding) without the network's.
struct CannedTransport: ClientTransport {
    let body: Data
    func send(_ request: HTTPRequest, body _: HTTPBody?, baseURL _: URL, operationID _: String) async throws -> (HTTPResponse, HTTPBody?) {
        var response = HTTPResponse(status: .ok)
        response.headerFields[.contentType] = "application/json; charset=utf-8"
        return (response, HTTPBody(body))
    }
}

if arguments.count > 4, arguments[4] == "canned" {
    let data = try await fetchList()
    let canned = CannedTransport(body: data)
    let cannedPlain = GeneratedList(serverURL: base, transport: canned)
    let cannedClient = OnTheMapClient(baseURL: base, transport: canned)
    // As the bare call's decoding: a buffer of its own each time, as URLSession hands over.
    func decodeOnly() async throws -> Int { try decoder.decode(BarePage.self, from: Data(Array(data))).results.count }
    func cannedGenerated() async throws -> Int { try await cannedPlain.latest100() }
    func cannedFacade() async throws -> Int { try await cannedClient.latest(limit: 100).count }
    let names = ["JSONDecoder alone, the bare call's decoding", "generated client, canned answer", "OnTheMapClient.latest(limit: 100), canned answer"]
    let (medians, _) = try await rounds(of: [decodeOnly, cannedGenerated, cannedFacade], count: calls, rounds: rounds)
    for (name, figures) in zip(names, medians) {
        let microseconds = figures.cpu / Double(calls) * 1e6, baseline = medians[0].cpu / Double(calls) * 1e6
        print(String(format: "| %@ | %.0f µs | %+.0f µs |", name, microseconds, microseconds - baseline))
    }
    exit(0)
}

if arguments.count > 4 {
    let only: () async throws -> Int = switch arguments[4] { case "bare": bare; case "generated": generated; default: facade }
    for round in try await rounds(of: [only], count: calls, rounds: rounds).all {
        print(String(format: "%@: %.3f ms wall, %.3f ms CPU per call", arguments[4], round[0].wall / Double(calls) * 1000, round[0].cpu / Double(calls) * 1000))
    }
    exit(0)
}

let (medians, all) = try await rounds(of: [bare, generated, facade, bareWithDates], count: calls, rounds: rounds)
let (bareWall, bareCPU) = medians[0], (generatedWall, generatedCPU) = medians[1], (facadeWall, facadeCPU) = medians[2]
let (datesWall, datesCPU) = medians[3]
func perCall(_ seconds: Double) -> String { String(format: "%.3f ms", seconds / Double(calls) * 1000) }
func change(_ after: Double, _ before: Double) -> String { String(format: "%+.1f%%", (after / before - 1) * 100) }
print("| bare URLSession + JSONDecoder, dates left as strings | \(perCall(bareWall)) | \(perCall(bareCPU)) |")
print("| bare URLSession + JSONDecoder, dates read (Date.ISO8601FormatStyle) | \(perCall(datesWall)) | \(perCall(datesCPU)) |")
print("| generated client alone (URLSessionTransport) | \(perCall(generatedWall)) | \(perCall(generatedCPU)) |")
print("| OnTheMapClient.latest(limit: 100) | \(perCall(facadeWall)) | \(perCall(facadeCPU)) |")
print("| OnTheMapKit over the bare call doing the same work (dates read) | \(change(facadeWall, datesWall)) | \(change(facadeCPU, datesCPU)) |")
print("| OnTheMapKit over the bare call leaving dates as strings | \(change(facadeWall, bareWall)) | \(change(facadeCPU, bareCPU)) |")
print("| of which the façade over the generated client | \(change(facadeWall, generatedWall)) | \(change(facadeCPU, generatedCPU)) |")
/// The rounds' own spread of that figure: each round's façade against the same round's bare call.
func spread(_ figure: (Figures) -> Double) -> String {
    let ratios = all.map { figure($0[2]) / figure($0[0]) }
    return "\(change(ratios.min() ?? 1, 1)) to \(change(ratios.max() ?? 1, 1))"
}
let wallSpread = spread(\.wall), cpuSpread = spread(\.cpu)
print("| OnTheMapKit over the bare call leaving dates as strings, round by round | \(wallSpread) | \(cpuSpread) |")
