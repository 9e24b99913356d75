/// Finds names within one or two typos ("Seatle", "San Fransisco", "Philadelpia") among the places
/// worth guessing: towns of 15,000 people or more, regions and countries. A deletion index: every
/// name is stored with each one-letter deletion of itself, and a query's own deletions meet them;
/// candidates are then checked with the Damerau–Levenshtein distance.
struct TypoIndex: Sendable {
    static let minimumPopulation = 15_000
    static let alternatesFromPopulation = 500_000

    private let names: [[UInt8]]
    private let featureOfName: [Int32]
    private let deletionHashes: [UInt64]
    private let deletionNames: [Int32]

    /// Collects names, then freezes them.
    struct Builder {
        private var names: [[UInt8]] = []
        private var featureOfName: [Int32] = []

        mutating func add(normalized name: [UInt8], feature: Int) {
            guard name.count >= 4, name.count <= 40 else { return }
            names.append(name)
            featureOfName.append(Int32(feature))
        }

        func build() -> TypoIndex {
            var entries: [(UInt64, Int32)] = []
            entries.reserveCapacity(names.count * 10)
            for (index, name) in names.enumerated() {
                entries.append((NameIndex.hash(name), Int32(index)))
                for variant in TypoIndex.deletions(of: name) { entries.append((NameIndex.hash(variant), Int32(index))) }
            }
            entries.sort { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1 < $1.1 }
            return TypoIndex(names: names, featureOfName: featureOfName,
                             deletionHashes: entries.map(\.0), deletionNames: entries.map(\.1))
        }
    }

    /// Features whose name is within `maximumDistance` of `query` (1 up to 7 letters, 2 from 8).
    func features(near query: [UInt8]) -> [Int] {
        let letters = query.filter { $0 != UInt8(ascii: " ") }.count
        guard letters >= 5, !query.contains(where: { (48...57).contains($0) }) else { return [] }
        let maximumDistance = letters >= 8 ? 2 : 1
        var candidates = Set<Int32>()
        for variant in [query] + Self.deletions(of: query) {
            let hash = NameIndex.hash(variant)
            var low = deletionHashes.lowerBound(of: hash)
            while low < deletionHashes.count, deletionHashes[low] == hash {
                candidates.insert(deletionNames[low])
                low += 1
            }
        }
        return candidates.filter { candidate in
            let name = names[Int(candidate)]
            // Short words rarely have their first letter wrong, and ordinary words ("hello") sit
            // one letter from some town ("Bello"): below 7 letters the first letter must agree.
            if letters < 7, name.first != query.first { return false }
            return Self.distance(name, query, limit: maximumDistance) <= maximumDistance
        }.map { Int(featureOfName[Int($0)]) }
    }

    /// Every string made by deleting one byte of `name` (multi-byte letters are only ever
    /// compared whole by the distance check, so a broken sequence here can only miss, not mislead).
    static func deletions(of name: [UInt8]) -> [[UInt8]] {
        var variants: [[UInt8]] = []
        variants.reserveCapacity(name.count)
        for index in name.indices where index == 0 || name[index] != name[index - 1] {
            var variant = name
            variant.remove(at: index)
            variants.append(variant)
        }
        return variants
    }

    /// Optimal-string-alignment distance (Damerau–Levenshtein with adjacent transpositions),
    /// giving up early once every path exceeds `limit`.
    static func distance(_ a: [UInt8], _ b: [UInt8], limit: Int) -> Int {
        if abs(a.count - b.count) > limit { return limit + 1 }
        guard !a.isEmpty else { return b.count }
        var previousPrevious = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            var rowMinimum = current[0]
            for j in stride(from: 1, through: b.count, by: 1) {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { value = min(value, previousPrevious[j - 2] + 1) }
                current[j] = value
                rowMinimum = min(rowMinimum, value)
            }
            if rowMinimum > limit { return limit + 1 }
            (previousPrevious, previous, current) = (previous, current, previousPrevious)
        }
        return previous[b.count]
    }
}
