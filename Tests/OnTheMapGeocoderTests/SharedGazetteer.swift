import OnTheMapGeocoder
import Testing

/// The bundled gazetteer, loaded once for all tests (a few seconds in a debug build).
enum Shared {
    static let geocoder = Geocoder(gazetteer: try! Gazetteer.load())

    /// The best answer's display name, or nil.
    static func best(_ query: String) -> GeocodeResult? { geocoder.geocode(query, limit: 1).first }

    /// Expects `text`'s best answer in `country`, within `degrees` of the point.
    static func expectAnswer(_ text: String, in country: String, near latitude: Double, _ longitude: Double, within degrees: Double,
                             sourceLocation: SourceLocation = #_sourceLocation) throws {
        let answer = try #require(Self.best(text), "no answer for \(text)", sourceLocation: sourceLocation)
        #expect(answer.countryCode == country, "\(text) → \(answer.name)", sourceLocation: sourceLocation)
        #expect(abs(answer.latitude - latitude) < degrees && abs(answer.longitude - longitude) < degrees, "\(text) → \(answer.name)",
                sourceLocation: sourceLocation)
    }
}
