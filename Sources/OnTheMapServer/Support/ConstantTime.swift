/// Comparing secrets (a token, a MAC) without the time taken telling how much of a guess was right.
enum ConstantTime {
    /// Whether `a` and `b` hold the same bytes; the time depends on their length only.
    static func equal(_ a: some StringProtocol, _ b: some StringProtocol) -> Bool {
        let left = Array(a.utf8), right = Array(b.utf8)
        guard left.count == right.count else { return false }
        return zip(left, right).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
