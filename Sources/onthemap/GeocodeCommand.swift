import ArgumentParser
import Foundation
import OnTheMapGeocoder
import OnTheMapModel

/// `onthemap geocode`: the offline geocoder from the shell, with no server and no database.
struct GeocodeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "geocode",
        abstract: "Turn place names into points, offline.",
        discussion: """
            With queries as arguments, prints the best answer for each. With --jsonl, reads one query per \
            line from standard input, taken exactly as written (nothing trimmed, empty lines included), and \
            prints one JSON object per line: {"query": …, "result": {"name", "latitude", "longitude", \
            "countryCode", "accuracy"} or null, "doubts": […]}; doubts say why an answer is less sure \
            (context, two-places, typo, transliterated, namesakes).
            """)

    @Flag(help: "Read queries from standard input and write JSON lines.") var jsonl = false
    @Option(help: ArgumentHelp("Answers per query when printing for a person (default 1).", valueName: "count")) var limit = 1
    @Argument(help: "Queries, e.g. \"Seattle, WA\" München \"Paris, TX\".") var queries: [String] = []

    func validate() throws {
        if jsonl, !queries.isEmpty { throw ValidationError("Give queries as arguments or --jsonl on standard input, not both.") }
        if !jsonl, queries.isEmpty { throw ValidationError("Give at least one query, or --jsonl to read them from standard input.") }
        guard (1...50).contains(limit) else { throw ValidationError("--limit must be from 1 to 50.") }
    }

    func run() async throws {
        let geocoder: Geocoder
        do {
            geocoder = Geocoder(gazetteer: try Gazetteer.load())
        } catch {
            throw CommandFailure("\(error)")
        }
        if jsonl {
            try Self.writeJSONLines(geocoder)
            return
        }
        for query in queries {
            let answer = geocoder.lookup(query, limit: limit)
            if answer.results.isEmpty { print("\(query) → no match") }
            let doubt = answer.doubts.isEmpty ? "" : " · less sure: \(answer.doubts.map(\.rawValue).joined(separator: ", "))"
            for (index, result) in answer.results.enumerated() {
                print("\(query) → \(result.name) (\(Self.format(result.latitude)), \(Self.format(result.longitude))) "
                    + "\(result.accuracy.rawValue)\(index == 0 ? doubt : "")")
            }
        }
    }

    /// One JSON object per input line; lines are split on "\n" only, so nothing else is removed.
    static func writeJSONLines(_ geocoder: Geocoder) throws {
        let input = FileHandle.standardInput.readDataToEndOfFile()
        var lines = input.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        if lines.last?.isEmpty == true { lines.removeLast() }
        let encoder = JSONWire.encoder()
        var output = Data()
        for line in lines {
            let query = String(decoding: line, as: UTF8.self)
            let answer = geocoder.lookup(query, limit: 1)
            output.append(try encoder.encode(Line(query: query, result: answer.results.first, doubts: answer.doubts)))
            output.append(UInt8(ascii: "\n"))
        }
        FileHandle.standardOutput.write(output)
    }

    private struct Line: Encodable {
        let query: String
        let result: GeocodeResult?
        let doubts: [GeocodeDoubt]

        enum CodingKeys: CodingKey { case query, result, doubts }

        /// `result` is written as null, not left out.
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(query, forKey: .query)
            try container.encode(result, forKey: .result)
            try container.encode(doubts, forKey: .doubts)
        }
    }

    private static func format(_ value: Double) -> String { String(format: "%.5f", value) }
}
