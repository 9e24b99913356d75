/// The email addresses in a class list as an instructor pastes it: one student a line, from a
/// spreadsheet (commas, semicolons or tabs between fields), a mail client (`Ada Lovelace
/// <ada@example.com>`) or a plain list. Every field that is an email address is taken; a line
/// with none is reported back, so that nobody is left out without the instructor knowing.
public struct ClassList: Sendable, Equatable {
    /// Normalised (`Validation.normalizedEmail`), each once, in the order of the list.
    public var emails: [String]
    /// Lines that are not blank and hold no email address, trimmed.
    public var unreadable: [String]

    public init(_ text: String) {
        var seen: Set<String> = []
        emails = []
        unreadable = []
        for line in text.split(whereSeparator: \.isNewline) {
            let fields = line.split(whereSeparator: { ",;\t <>\"'()[]".contains($0) })
            let found = fields.compactMap { try? Validation.email(String($0)) }
            if found.isEmpty {
                let trimmed = String(line).trimmingWhitespace()
                if !trimmed.isEmpty { unreadable.append(trimmed) }
            }
            for email in found where seen.insert(email).inserted { emails.append(email) }
        }
    }
}
