import Foundation
import OnTheMapGeocoder
import Testing

/// A region answers at a point inside it near its middle, far from its capital,
/// with the box that frames all of it.
@Suite struct RegionShapeTests {
    /// (query, a point deep inside the region, its capital or largest city, the box's rough extent).
    @Test(arguments: [
        ("Ontario", (50.0, -85.0), (43.65, -79.38), (west: -95.2, south: 41.7, east: -74.3, north: 56.9)),
        ("Texas", (31.1, -98.7), (29.76, -95.37), (west: -106.6, south: 25.8, east: -93.5, north: 36.5)),
        ("New South Wales", (-32.0, 147.0), (-33.87, 151.21), (west: 141.0, south: -37.5, east: 153.6, north: -28.2)),
        ("Bayern", (48.9, 11.4), (48.14, 11.58), (west: 9.0, south: 47.3, east: 13.8, north: 50.6)),
    ])
    func regionIsFramedFromItsMiddle(query: String, middle: (Double, Double), capital: (Double, Double),
                                     box: (west: Double, south: Double, east: Double, north: Double)) throws {
        let result = try #require(Shared.best(query))
        #expect(result.accuracy == .region)
        let fromMiddle = Self.kilometres(result.latitude, result.longitude, middle.0, middle.1)
        let fromCapital = Self.kilometres(result.latitude, result.longitude, capital.0, capital.1)
        #expect(fromMiddle < fromCapital, "\(query): \(Int(fromMiddle)) km from the middle, \(Int(fromCapital)) from the capital")
        let bbox = try #require(result.bbox)
        for (got, want) in [(bbox.west, box.west), (bbox.south, box.south), (bbox.east, box.east), (bbox.north, box.north)] {
            #expect(abs(got - want) < 0.5, "\(query): \(bbox)")
        }
        #expect((bbox.south...bbox.north).contains(result.latitude) && (bbox.west...bbox.east).contains(result.longitude))
    }

    @Test func hawaiiFramesItsIslandsAndAlaskaStopsShortOfTheDateLine() throws {
        let hawaii = try #require(Shared.best("Hawaii")?.bbox)
        #expect(hawaii.west < -159.5 && hawaii.east > -155.0)   // Kauai to the Big Island
        let alaska = try #require(Shared.best("Alaska")?.bbox)
        #expect(alaska.west > -180 && alaska.west < alaska.east)
    }

    @Test func countriesCarryABoxAndCitiesDoNot() throws {
        let france = try #require(Shared.best("France")?.bbox)
        #expect(france.west > -6 && france.east < 10)   // mainland France, not its overseas departments
        let fiji = try #require(Shared.best("Fiji")?.bbox)
        #expect(fiji.west > fiji.east)                   // across the date line
        #expect(Shared.best("Seattle")?.bbox == nil)
    }

    @Test func regionsAnswerToTheirNamesInOtherLanguages() {
        for (query, name) in [("Баварія", "Bavaria, Germany"), ("バイエルン", "Bavaria, Germany"), ("Niedersachsen", "Lower Saxony, Germany"),
                              ("Свердловская область", "Sverdlovsk Oblast, Russia")] {
            #expect(Shared.best(query)?.name == name, "\(query) → \(String(describing: Shared.best(query)?.name))")
        }
    }

    static func kilometres(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Double {
        let x = (lon2 - lon1) * cos((lat1 + lat2) / 2 * .pi / 180), y = lat2 - lat1
        return (x * x + y * y).squareRoot() * 111.2
    }
}
