import AsyncHTTPClient
import Foundation
import NIOCore

/// Asks a Nominatim-compatible search endpoint (`…/search?format=jsonv2`) configured by the
/// operator. Only for deployments with internet; the offline geocoder is always the fallback.
public struct NominatimClient: Sendable {
    /// The search endpoint, e.g. `https://nominatim.example.org/search`.
    public let searchURL: String
    public let timeout: Duration
    let httpClient: HTTPClient

    public init(searchURL: String, timeout: Duration = .milliseconds(1500), httpClient: HTTPClient = .shared) {
        self.searchURL = searchURL
        self.timeout = timeout
        self.httpClient = httpClient
    }

    /// The upstream's answers, best first. Throws on a timeout, a non-200 answer or unreadable JSON.
    public func search(_ query: String, limit: Int) async throws -> [GeocodeResult] {
        var allowed = CharacterSet.urlQueryAllowed
        allowed.remove(charactersIn: "&=+?#")
        let encoded = query.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
        let separator = searchURL.contains("?") ? "&" : "?"
        var request = HTTPClientRequest(url: "\(searchURL)\(separator)format=jsonv2&addressdetails=1&limit=\(limit)&q=\(encoded)")
        // Nominatim's usage policy asks every client to identify itself.
        request.headers.add(name: "User-Agent", value: "onthemap (self-hosted On The Map server)")
        request.headers.add(name: "Accept", value: "application/json")
        let response = try await httpClient.execute(request, timeout: timeAmount(timeout))
        guard response.status == .ok else { throw UpstreamError.status(Int(response.status.code)) }
        let body = try await response.body.collect(upTo: 1 << 20)
        let places = try JSONDecoder().decode([NominatimPlace].self, from: Data(body.readableBytesView))
        return places.compactMap(\.result)
    }

    private func timeAmount(_ duration: Duration) -> TimeAmount {
        .nanoseconds(duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000)
    }

    public enum UpstreamError: Error {
        case status(Int)
    }
}

/// One element of Nominatim's `jsonv2` answer (the fields used).
struct NominatimPlace: Decodable {
    let lat: String
    let lon: String
    let display_name: String
    let place_rank: Int?
    let addresstype: String?
    let type: String?
    let address: [String: String]?

    var result: GeocodeResult? {
        guard let latitude = Double(lat), let longitude = Double(lon),
              (-90...90).contains(latitude), (-180...180).contains(longitude) else { return nil }
        return GeocodeResult(name: display_name, latitude: latitude, longitude: longitude,
                             countryCode: (address?["country_code"] ?? "").uppercased(), accuracy: accuracy)
    }

    /// From the kind of place Nominatim found, else from its rank (4 country, 8 state, 16 city, 30 house).
    var accuracy: GeoAccuracy {
        switch addresstype ?? type ?? "" {
        case "house", "building", "road", "house_number", "amenity", "place": return .address
        case "postcode": return .postcode
        case "city", "town", "village", "hamlet", "suburb", "municipality", "neighbourhood", "quarter": return .city
        case "state", "province", "region", "county", "state_district": return .region
        case "country": return .country
        default:
            switch place_rank ?? 30 {
            case ..<5: return .country
            case ..<13: return .region
            case ..<21: return .city
            case ..<26: return .postcode
            default: return .address
            }
        }
    }
}
