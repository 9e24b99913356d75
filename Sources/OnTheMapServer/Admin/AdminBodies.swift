import OnTheMapModel
import OnTheMapStore

/// The admin area's JSON: dates as the API writes them (ISO 8601 with milliseconds), absent
/// values as null (`Nullable`).
struct AdminPinBody: Encodable {
    let objectId: String
    let ownerKey: Nullable<String>
    let firstName: String
    let lastName: String
    let mapString: String
    let mediaURL: String
    let latitude: Double
    let longitude: Double
    let updatedAt: String
    let hidden: Bool
    /// Hidden (`hidden`) until an instructor approves it.
    let awaitingApproval: Bool

    init(_ pin: OwnedLocation) {
        objectId = pin.location.objectId
        ownerKey = Nullable(pin.ownerKey)
        firstName = pin.location.firstName
        lastName = pin.location.lastName
        mapString = pin.location.mapString
        mediaURL = pin.location.mediaURL
        latitude = pin.location.latitude
        longitude = pin.location.longitude
        updatedAt = WireTime.formatMillis(pin.location.updatedAt)
        hidden = pin.isHidden
        awaitingApproval = pin.awaitingApproval
    }

}

struct AdminAccountBody: Encodable {
    let key: String
    let email: String
    let firstName: String
    let lastName: String
    let isAdmin: Bool
    let disabled: Bool
    let createdAt: String
    let lastLoginAt: Nullable<String>
    let location: Nullable<AdminPinBody>

    init(_ account: Account, pin: OwnedLocation?) {
        key = account.key
        email = account.email
        firstName = account.firstName
        lastName = account.lastName
        isAdmin = account.isAdmin
        disabled = account.isDisabled
        createdAt = WireTime.formatMillis(account.createdAt)
        lastLoginAt = Nullable(account.lastLoginAt.map(WireTime.formatMillis))
        location = Nullable(pin.map(AdminPinBody.init))
    }

}

struct ReportedPinBody: Encodable {
    struct ReportBody: Encodable {
        let id: Int64
        let reason: String
        let reporterKey: String
        let createdAt: String
        let resolution: String?
    }

    let objectId: String
    let location: Nullable<AdminPinBody>
    let reports: [ReportBody]

    init(_ reported: AdminService.ReportedPin) {
        objectId = reported.objectId
        location = Nullable(reported.pin.map(AdminPinBody.init))
        reports = reported.reports.map {
            ReportBody(id: $0.id, reason: $0.reason.rawValue, reporterKey: $0.reporterKey, createdAt: WireTime.formatMillis($0.createdAt), resolution: $0.resolution)
        }
    }
}

struct AuditEntryBody: Encodable {
    let id: Int64
    let at: String
    let actorEmail: String
    let action: String
    let target: String
    let detail: String

    init(_ entry: AuditEntry) {
        id = entry.id
        at = WireTime.formatMillis(entry.at)
        actorEmail = entry.actorEmail
        action = entry.action.rawValue
        target = entry.target
        detail = entry.detail
    }
}

/// A value written as `null` when absent, where synthesized encoding would leave the key out.
struct Nullable<Value: Encodable>: Encodable {
    let value: Value?

    init(_ value: Value?) {
        self.value = value
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let value { try container.encode(value) } else { try container.encodeNil() }
    }
}

/// `{"results": [...]}`, as every list of this API.
struct ResultsBody<Item: Encodable>: Encodable {
    let results: [Item]
}
