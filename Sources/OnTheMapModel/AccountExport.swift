import Foundation

/// The class's roster as a file, for an instructor's gradebook or another system: every account
/// with what it is known by, never its password hash. CSV or JSON lines (accounts have no place on
/// a map, so no GeoJSON).
extension ExportFormat {
    /// The columns of the CSV, in this order, and the keys of JSON lines (which come sorted, as in
    /// all the JSON this service writes).
    public static let accountFields = ["key", "email", "firstName", "lastName", "isAdmin", "disabled", "hasPassword",
                                       "signInProviders", "createdAt", "lastLoginAt"]

    /// Whether accounts can be written in this format.
    public var holdsAccounts: Bool { self != .geojson }

    /// What an accounts file starts with.
    public var accountHeader: String {
        self == .csv ? Self.accountFields.joined(separator: ",") + "\r\n" : ""
    }

    /// One account; `providers` are the ids of the providers it signs in with.
    public func accountEntry(_ account: Account, providers: [String]) -> String {
        let created = WireTime.formatMillis(account.createdAt)
        let lastLogin = account.lastLoginAt.map(WireTime.formatMillis)
        switch self {
        case .csv:
            let cells = [account.key, account.email, account.firstName, account.lastName].map(Self.textCell)
                + [String(account.isAdmin), String(account.isDisabled), String(account.hasPassword),
                   Self.textCell(providers.joined(separator: " ")), created, lastLogin ?? ""]
            return cells.joined(separator: ",") + "\r\n"
        case .jsonl, .geojson:
            let row = AccountRow(key: account.key, email: account.email, firstName: account.firstName, lastName: account.lastName,
                                 isAdmin: account.isAdmin, disabled: account.isDisabled, hasPassword: account.hasPassword,
                                 signInProviders: providers, createdAt: created, lastLoginAt: lastLogin)
            return String(decoding: (try? Self.encoder.encode(row)) ?? Data("{}".utf8), as: UTF8.self) + "\n"
        }
    }

    /// `accountFields` as JSON keys, `lastLoginAt` null when the account never logged in.
    private struct AccountRow: Encodable {
        let key, email, firstName, lastName: String
        let isAdmin, disabled, hasPassword: Bool
        let signInProviders: [String]
        let createdAt: String
        let lastLoginAt: String?

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(key, forKey: .key)
            try container.encode(email, forKey: .email)
            try container.encode(firstName, forKey: .firstName)
            try container.encode(lastName, forKey: .lastName)
            try container.encode(isAdmin, forKey: .isAdmin)
            try container.encode(disabled, forKey: .disabled)
            try container.encode(hasPassword, forKey: .hasPassword)
            try container.encode(signInProviders, forKey: .signInProviders)
            try container.encode(createdAt, forKey: .createdAt)
            // Written even when nil, as null: every row has every key.
            try container.encode(lastLoginAt, forKey: .lastLoginAt)
        }

        enum CodingKeys: String, CodingKey {
            case key, email, firstName, lastName, isAdmin, disabled, hasPassword, signInProviders, createdAt, lastLoginAt
        }
    }
}
