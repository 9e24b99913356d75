import CompressNIO
import Foundation
import NIOCore
import OnTheMapGeocoder
import OnTheMapTestSupport
import Testing

/// A damaged data file stops the load with the file's name, never a gazetteer missing what the
/// file held.
///
/// Each case loads a copy of the data whose two large files keep their first rows only: a load of
/// the full data is seconds of CPU in a debug build (six of them were a third of the CPU of the whole
/// SQLite pass), and what is checked, a file that is cut short, not gzip or empty, is the same in a
/// small file. The loads run one at a time, each on a thread of its own, so as not to hold a thread of
/// the concurrency pool that the live servers of the suites beside them need.
@Suite(.serialized) struct GazetteerFilesTests {
    enum Damage: String, CaseIterable, Sendable {
        case cutShort, notGzip, empty

        func apply(to data: Data) -> Data {
            switch self {
            case .cutShort: data.prefix(data.count / 2)
            case .notGzip: Data("SW1A 2AA\n".utf8)
            case .empty: Data()
            }
        }
    }

    @Test(arguments: ["postcodes.tsv.gz", "places.tsv.gz"], Damage.allCases)
    func aDamagedFileIsNamed(file: String, damage: Damage) async throws {
        let directory = try Self.smallCopyOfTheData()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent(file)
        try damage.apply(to: try Data(contentsOf: path)).write(to: path)
        let loaded = try await onItsOwnThread { Result { try Gazetteer.load(from: directory) } }
        guard case .failure(let error) = loaded else {
            Issue.record("a damaged \(file) loaded")
            return
        }
        #expect(String(describing: error).contains(file), "\(error)")
    }

    /// Undamaged, the small copy loads: the cases above fail for their damage alone.
    @Test func theSmallCopyLoads() async throws {
        let directory = try Self.smallCopyOfTheData()
        defer { try? FileManager.default.removeItem(at: directory) }
        let gazetteer = try await onItsOwnThread { try Gazetteer.load(from: directory) }
        #expect(Geocoder(gazetteer: gazetteer).geocode("Peru", limit: 1).first?.countryCode == "PE")
    }

    /// The bundled data with places and postcodes cut to their first rows, and without the aliases
    /// of places the cut left out (an alias of an unknown place stops the load).
    static func smallCopyOfTheData(rows: Int = 2000) throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("gazetteer-\(UUID().uuidString)")
        try FileManager.default.copyItem(at: Gazetteer.bundledDataDirectory, to: directory)
        for file in ["places.tsv.gz", "postcodes.tsv.gz"] {
            let path = directory.appendingPathComponent(file)
            var compressed = ByteBuffer(data: try Data(contentsOf: path))
            let text = try compressed.decompress(with: .gzip()).readableBytesView
            var end = text.startIndex
            for _ in 0..<rows {
                guard let newline = text[end...].firstIndex(of: UInt8(ascii: "\n")) else { break }
                end = newline + 1
            }
            var firstRows = ByteBuffer(bytes: text[..<end])
            try Data(buffer: try firstRows.compress(with: .gzip())).write(to: path)
        }
        let aliases = directory.appendingPathComponent("aliases.tsv")
        let kept = try String(contentsOf: aliases, encoding: .utf8).split(separator: "\n").filter { !$0.contains("\tplace:") }
        try kept.joined(separator: "\n").write(to: aliases, atomically: true, encoding: .utf8)
        return directory
    }
}
