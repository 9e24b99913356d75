/// One pin on the map, as stored and as sent: all ten fields, never null.
public struct StudentLocation: Sendable, Equatable {
    public var objectId: String
    /// The owning account's key (or, for an anonymous legacy write, whatever the client sent).
    public var uniqueKey: String
    public var firstName: String
    public var lastName: String
    /// Kept verbatim, trailing spaces included.
    public var mapString: String
    public var mediaURL: String
    public var latitude: Double
    public var longitude: Double
    /// Milliseconds since the epoch; the wire shows exactly three fractional digits.
    public var createdAt: Int64
    public var updatedAt: Int64

    public init(
        objectId: String, uniqueKey: String, firstName: String, lastName: String, mapString: String,
        mediaURL: String, latitude: Double, longitude: Double, createdAt: Int64, updatedAt: Int64
    ) {
        self.objectId = objectId
        self.uniqueKey = uniqueKey
        self.firstName = firstName
        self.lastName = lastName
        self.mapString = mapString
        self.mediaURL = mediaURL
        self.latitude = latitude
        self.longitude = longitude
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

extension StudentLocation: Encodable {
    private enum CodingKeys: String, CodingKey {
        case objectId, uniqueKey, firstName, lastName, mapString, mediaURL, latitude, longitude, createdAt, updatedAt
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(objectId, forKey: .objectId)
        try container.encode(uniqueKey, forKey: .uniqueKey)
        try container.encode(firstName, forKey: .firstName)
        try container.encode(lastName, forKey: .lastName)
        try container.encode(mapString, forKey: .mapString)
        try container.encode(mediaURL, forKey: .mediaURL)
        try container.encode(latitude, forKey: .latitude)
        try container.encode(longitude, forKey: .longitude)
        try container.encode(WireTime.formatMillis(createdAt), forKey: .createdAt)
        try container.encode(WireTime.formatMillis(updatedAt), forKey: .updatedAt)
    }
}

/// The fields a client supplies when writing a location. Each is optional so the same type serves
/// a create (where `requireComplete` insists on the essentials) and a Parse-style partial update.
public struct LocationFields: Sendable, Equatable {
    public var uniqueKey: String?
    public var firstName: String?
    public var lastName: String?
    public var mapString: String?
    public var mediaURL: String?
    public var latitude: Double?
    public var longitude: Double?

    public init(
        uniqueKey: String? = nil, firstName: String? = nil, lastName: String? = nil, mapString: String? = nil,
        mediaURL: String? = nil, latitude: Double? = nil, longitude: Double? = nil
    ) {
        self.uniqueKey = uniqueKey
        self.firstName = firstName
        self.lastName = lastName
        self.mapString = mapString
        self.mediaURL = mediaURL
        self.latitude = latitude
        self.longitude = longitude
    }

    /// Reads and validates a write body. Unknown keys, `objectId`, `createdAt` and `updatedAt` are
    /// ignored (real clients send `"objectId": ""` and locale-formatted dates); a `null` counts as absent.
    public static func parse(_ body: JSONValue) throws(APIError) -> LocationFields {
        guard let members = body.object else { throw .invalidJSON("The request body must be a JSON object.") }
        var fields = LocationFields()
        fields.uniqueKey = try Validation.label(try text(members, "uniqueKey"), field: "uniqueKey")
        fields.firstName = try Validation.label(try text(members, "firstName"), field: "firstName")
        fields.lastName = try Validation.label(try text(members, "lastName"), field: "lastName")
        fields.mapString = try text(members, "mapString").map { text throws(APIError) in try Validation.mapString(text) }
        fields.mediaURL = try text(members, "mediaURL").map { text throws(APIError) in try Validation.mediaURL(text) }
        fields.latitude = try number(members, "latitude").map { value throws(APIError) in try Validation.latitude(value) }
        fields.longitude = try number(members, "longitude").map { value throws(APIError) in try Validation.longitude(value) }
        return fields
    }

    /// A create needs a place, a link and a point; absent names become empty strings so that every
    /// stored record has all ten fields.
    public func requireComplete() throws(APIError) -> CompleteLocationFields {
        guard let mapString else { throw .validation("mapString", "mapString is required.") }
        guard let mediaURL else { throw .validation("mediaURL", "mediaURL is required.") }
        guard let latitude else { throw .validation("latitude", "latitude is required.") }
        guard let longitude else { throw .validation("longitude", "longitude is required.") }
        return CompleteLocationFields(
            uniqueKey: uniqueKey ?? "", firstName: firstName ?? "", lastName: lastName ?? "",
            mapString: mapString, mediaURL: mediaURL, latitude: latitude, longitude: longitude)
    }

    private static func text(_ members: [String: JSONValue], _ key: String) throws(APIError) -> String? {
        switch members[key] {
        case nil, .null: return nil
        case .string(let value): return value
        default: throw .incorrectType(key, expected: "a string")
        }
    }

    private static func number(_ members: [String: JSONValue], _ key: String) throws(APIError) -> Double? {
        switch members[key] {
        case nil, .null: return nil
        case .number(let value): return value
        default: throw .incorrectType(key, expected: "a number")
        }
    }
}

/// Validated fields of a create: everything present.
public struct CompleteLocationFields: Sendable, Equatable {
    public var uniqueKey: String
    public var firstName: String
    public var lastName: String
    public var mapString: String
    public var mediaURL: String
    public var latitude: Double
    public var longitude: Double

    public init(
        uniqueKey: String, firstName: String, lastName: String, mapString: String, mediaURL: String,
        latitude: Double, longitude: Double
    ) {
        self.uniqueKey = uniqueKey
        self.firstName = firstName
        self.lastName = lastName
        self.mapString = mapString
        self.mediaURL = mediaURL
        self.latitude = latitude
        self.longitude = longitude
    }
}
