import Foundation

/// The gazetteer's cities filed by 1° cell of latitude and longitude, built once at load: finding
/// the towns around a point reads a handful of cells instead of every place.
struct CityGrid: Sendable {
    private static let rows = 180
    private static let columns = 360
    /// Cell → its first slot in `members`; one entry more than there are cells.
    private let starts: [Int32]
    /// Feature indices, cell after cell.
    private let members: [Int32]

    init(_ features: [GeoFeature]) {
        let cells = features.map { $0.kind == .city ? Self.cell(row: Self.row($0.latitude), column: Self.column($0.longitude)) : -1 }
        var starts = [Int32](repeating: 0, count: Self.rows * Self.columns + 1)
        for cell in cells where cell >= 0 { starts[cell + 1] += 1 }
        for index in 1..<starts.count { starts[index] += starts[index - 1] }
        var next = starts
        var members = [Int32](repeating: 0, count: Int(starts.last!))
        for (feature, cell) in cells.enumerated() where cell >= 0 {
            members[Int(next[cell])] = Int32(feature)
            next[cell] += 1
        }
        self.starts = starts
        self.members = members
    }

    /// Calls `body` with every city in the cells that hold points within `latitudeSpan` and
    /// `longitudeSpan` degrees of the point (and some beyond: the caller measures).
    func forEachCity(near latitude: Double, _ longitude: Double, latitudeSpan: Double, longitudeSpan: Double, _ body: (Int) -> Void) {
        let firstRow = Self.row(latitude - latitudeSpan), lastRow = Self.row(latitude + latitudeSpan)
        let firstColumn = Int((longitude - longitudeSpan).rounded(.down))
        let lastColumn = min(Int((longitude + longitudeSpan).rounded(.down)), firstColumn + Self.columns - 1)
        for row in firstRow...lastRow {
            for column in firstColumn...lastColumn {
                let cell = Self.cell(row: row, column: Self.column(Double(column)))
                for slot in Int(starts[cell])..<Int(starts[cell + 1]) { body(Int(members[slot])) }
            }
        }
    }

    private static func row(_ latitude: Double) -> Int {
        min(max(Int(latitude.rounded(.down)) + 90, 0), rows - 1)
    }

    /// Longitudes wrap: 181° is −179°.
    private static func column(_ longitude: Double) -> Int {
        let column = (Int(longitude.rounded(.down)) + 180) % columns
        return column < 0 ? column + columns : column
    }

    private static func cell(row: Int, column: Int) -> Int { row * columns + column }
}
