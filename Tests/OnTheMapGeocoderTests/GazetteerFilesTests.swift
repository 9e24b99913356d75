import Foundation
import OnTheMapGeocoder
import Testing

/// A damaged data file stops the load with the file's name, never a gazetteer missing what the
/// file held.
@Suite struct GazetteerFilesTests {
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
    func aDamagedFileIsNamed(file: String, damage: Damage) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("gazetteer-\(UUID().uuidString)")
        try FileManager.default.copyItem(at: Gazetteer.bundledDataDirectory, to: directory)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent(file)
        try damage.apply(to: try Data(contentsOf: path)).write(to: path)
        let error = #expect(throws: (any Error).self) { try Gazetteer.load(from: directory) }
        #expect(error.map { String(describing: $0) }?.contains(file) == true, "\(String(describing: error))")
    }
}
