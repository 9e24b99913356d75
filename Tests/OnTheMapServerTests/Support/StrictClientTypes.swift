import Foundation

/// Decoders written the way the strictest real clients wrote theirs: every field non-optional,
/// dates parsed with a fixed `yyyy-MM-dd'T'HH:mm:ss.SSS'Z'` pattern.
struct StrictLocation: Decodable, Equatable {
    let objectId: String
    let uniqueKey: String
    let firstName: String
    let lastName: String
    let mapString: String
    let mediaURL: String
    let latitude: Double
    let longitude: Double
    let createdAt: Date
    let updatedAt: Date
}

struct StrictResults: Decodable {
    let results: [StrictLocation]
}

struct StrictCountedResults: Decodable {
    let results: [StrictLocation]
    let count: Int
}

struct StrictCreated: Decodable {
    let createdAt: Date
    let objectId: String
}

struct StrictUpdated: Decodable {
    let updatedAt: Date
}

/// The login answer, with the expiration decoded the way clients with a `.SSSSSS` pattern do.
struct StrictLogin: Decodable {
    struct Account: Decodable {
        let registered: Bool
        let key: String
    }

    struct Session: Decodable {
        let id: String
        let expiration: String
    }

    let account: Account
    let session: Session
}

/// One client decodes logout as `[String: Session]`: any other top-level key breaks it.
struct StrictLogoutSession: Decodable {
    let id: String
    let expiration: String
}

/// The full Udacity user-data field set, all non-optional.
struct StrictProfile: Decodable {
    struct Email: Decodable {
        let address: String
        let _verified: Bool
        let _verification_code_sent: Bool
    }

    let first_name: String
    let last_name: String
    let nickname: String
    let key: String
    let email: Email
    let _has_password: Bool
    let _registered: Bool
    let employer_sharing: Bool
    let social_accounts: [String]
    let _cohort_keys: [String]
    let _badges: [String]
    let _principals: [String]
    let _enrollments: [String]
    let external_accounts: [String]
    let tags: [String]
    let _affiliate_profiles: [String]
    let _memberships: [String]
    let `guard`: [String: String]
    let _image_url: String
}

struct WrappedProfile: Decodable {
    let user: StrictProfile
}

/// Errors as both kinds of client decode them.
struct UdacityError: Decodable {
    let status: Int
    let error: String
}

struct ParseError: Decodable {
    let code: Int
    let error: String
}

extension JSONDecoder {
    /// The decoder clients used for locations.
    static var strict: JSONDecoder {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ss.SSS'Z'"
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .formatted(formatter)
        return decoder
    }
}

/// `GET /v1/geocode` as a strict client decodes it.
struct GeocodeAnswer: Decodable {
    struct Result: Decodable {
        let name: String
        let latitude: Double
        let longitude: Double
        let countryCode: String
        let accuracy: String
    }

    let results: [Result]
}
