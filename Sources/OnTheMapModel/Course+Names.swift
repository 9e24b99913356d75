/// How a course that shows readers who are not its members only initials writes a name.
extension Course.NamesShown {
    /// `name`'s first letter (a whole grapheme: "Élodie" is "É.", "김민준" is "김.") and a full stop;
    /// empty for an empty name.
    public static func initial(of name: String) -> String {
        guard let first = name.trimmingWhitespace().first else { return "" }
        return String(first) + "."
    }
}

extension StudentLocation {
    /// The pin with its student's names cut to initials (`Course.NamesShown.initials`), and without
    /// its `uniqueKey`, the account's key, which the public user profile (`/v1/users/{key}`) would
    /// turn back into the full name.
    public func withInitials() -> StudentLocation {
        var short = self
        short.uniqueKey = ""
        short.firstName = Course.NamesShown.initial(of: firstName)
        short.lastName = Course.NamesShown.initial(of: lastName)
        return short
    }
}
