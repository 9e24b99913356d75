import Foundation
@testable import OnTheMapGeocoder
import Testing

/// Metropolitan and regional areas and their everyday names (Resources/areas.tsv)
/// answer at region precision, with the box that frames them.
@Suite struct AreaTests {
    struct Row: Sendable, CustomTestStringConvertible {
        let names: [String]
        let box: [Double]
        var testDescription: String { names[0] }
    }

    static let rows: [Row] = {
        let url = Gazetteer.bundledDataDirectory.appendingPathComponent("areas.tsv")
        let text = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { line in
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            return Row(names: [fields[0]] + fields[1].split(separator: "|").map(String.init),
                       box: fields[6].split(separator: ",").compactMap { Double($0) })
        }
    }()

    @Test func theTableIsRead() {
        #expect(Self.rows.count >= 150)
        #expect(Shared.geocoder.gazetteer.features.filter { $0.kind == .area }.count == Self.rows.count)
    }

    /// Every name of every row, alone, is the area: at region precision, framed by its box.
    @Test(arguments: rows)
    func everyNameAnswersItsArea(row: Row) throws {
        for name in row.names {
            let best = try #require(Shared.best(name), "\(name) has no answer")
            #expect(best.name.hasPrefix(row.names[0] + ","), "\(name) → \(best.name)")
            #expect(best.accuracy == .region)
            #expect(best.bbox.map { [$0.west, $0.south, $0.east, $0.north] } == row.box)
        }
    }

    @Test func anAreaIsNamedWithItsRegionAndCountry() {
        #expect(Shared.best("Inland Empire")?.name == "Inland Empire, California, United States")
        #expect(Shared.best("living in the Inland Empire")?.name == "Inland Empire, California, United States")
        #expect(Shared.best("Randstad")?.name == "Randstad, The Netherlands")
    }

    /// An area after a town says where the town is, as a region would ("Riverside, Inland Empire"
    /// is the city, not Riverside County elsewhere).
    @Test func anAreaQualifiesATownInsideIt() throws {
        let best = try #require(Shared.best("Riverside, Inland Empire"))
        #expect(best.name == "Riverside, California, United States")
        #expect(best.accuracy == .city)
    }
}
