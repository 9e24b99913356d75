import OnTheMapGeocoder

/// The bundled gazetteer, loaded once for all tests (a few seconds in a debug build).
enum Shared {
    static let geocoder = Geocoder(gazetteer: try! Gazetteer.load())

    /// The best answer's display name, or nil.
    static func best(_ query: String) -> GeocodeResult? { geocoder.geocode(query, limit: 1).first }
}
