public import Foundation

/// A student's pin, as the list, the live feed and `me` show it.
public struct StudentLocation: Sendable, Hashable, Codable, Identifiable {
    public var id: String { objectId }
    public var objectId: String
    /// The account the pin belongs to.
    public var uniqueKey: String
    public var firstName: String
    public var lastName: String
    /// What the student typed: "Seattle, WA", "Costa Rica".
    public var mapString: String
    /// The student's link, as the server stored it (an http or https address).
    public var mediaURL: String
    public var latitude: Double
    public var longitude: Double
    public var createdAt: Date
    /// When the pin last moved; the list's default order is the newest first.
    public var updatedAt: Date

    public init(
        objectId: String, uniqueKey: String, firstName: String, lastName: String, mapString: String,
        mediaURL: String, latitude: Double, longitude: Double, createdAt: Date, updatedAt: Date
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

/// What a student posts: where they are and a link. Names come from the account.
public struct NewLocation: Sendable, Hashable {
    public var mapString: String
    public var mediaURL: String
    public var latitude: Double
    public var longitude: Double

    public init(mapString: String, mediaURL: String, latitude: Double, longitude: Double) {
        self.mapString = mapString
        self.mediaURL = mediaURL
        self.latitude = latitude
        self.longitude = longitude
    }

    /// A place `geocode` found, with the link.
    public init(place: Place, typed mapString: String, mediaURL: String) {
        self.init(mapString: mapString, mediaURL: mediaURL, latitude: place.latitude, longitude: place.longitude)
    }
}

/// The answer to a post: the pin's id, new or (when the account had a pin) the one overwritten.
public struct PostedLocation: Sendable, Hashable {
    public var objectId: String
    public var createdAt: Date
}

/// A logged-in session. `id` is the bearer token the client sends; keep it as a secret.
public struct Session: Sendable, Hashable, Codable {
    public var id: String
    /// The account's key, which is also the `uniqueKey` of its pin.
    public var accountKey: String
    public var expiration: Date?

    public init(id: String, accountKey: String, expiration: Date?) {
        self.id = id
        self.accountKey = accountKey
        self.expiration = expiration
    }
}

/// Who is logged in.
public struct Account: Sendable, Hashable {
    public var key: String
    public var email: String
    public var firstName: String
    public var lastName: String
    public var isAdmin: Bool
}

/// The caller's account and pin.
public struct Me: Sendable, Hashable {
    public var account: Account
    /// Nil until the student posts.
    public var location: StudentLocation?
    /// True when a moderator has hidden the pin (or an instructor declined it): it shows to its
    /// owner alone.
    public var locationHidden: Bool
    /// True while the pin waits for an instructor's approval, in a course that asks for it: until
    /// then it shows to its owner and the course's instructors alone.
    public var locationAwaitingApproval: Bool
}

/// One page of a list, with the total when the query asked for it.
public struct LocationPage: Sendable, Hashable {
    public var locations: [StudentLocation]
    /// Every location the query matches, whatever `limit` and `skip`; nil unless asked (`counted()`).
    public var count: Int?
}

/// What the geocoder made of some text.
public struct GeocodeAnswer: Sendable, Hashable {
    public enum Confidence: String, Sendable, Hashable { case high, low }
    /// Why the first result may not be what was meant ("typo", "namesakes", "two-places", …).
    public var doubts: [String]
    public var confidence: Confidence
    /// Best first; empty when nothing matched (and for junk: an email, a phone number).
    public var places: [Place]
}

/// A place the geocoder found.
public struct Place: Sendable, Hashable {
    public enum Accuracy: String, Sendable, Hashable { case address, postcode, city, region, country }
    public var name: String
    public var latitude: Double
    public var longitude: Double
    /// ISO 3166-1 alpha-2.
    public var countryCode: String
    public var accuracy: Accuracy
    /// For an address or postcode, the town it is in (for students who share only their town).
    public var town: String?
}
