/// Normalized names to features, as one sorted array of 64-bit name hashes beside an array of hits:
/// about 12 bytes a name, against well over 60 for a dictionary of strings, and a lookup is a
/// binary search. Two names share a hash with odds of about 1 in 10^7 for the whole gazetteer.
struct NameIndex: Sendable {
    /// How a name belongs to its feature. Raw values order them best first: when one name reaches
    /// one feature in several ways, the index keeps the best.
    enum Match: UInt32, Sendable {
        /// A hand-kept alias (aliases.tsv): what people mean by a name shared with others.
        case alias = 0
        /// The feature's own name.
        case primary = 1
        /// Another name (other languages, old names, variants).
        case alternate = 2
        /// A code or abbreviation: only ever a qualifier ("WA" in "Seattle, WA"), never a subject.
        case code = 3
    }

    struct Hit: Sendable, Equatable {
        let feature: Int
        let match: Match
    }

    private let hashes: [UInt64]
    private let values: [UInt32]

    /// Collects entries, then freezes them into an index.
    struct Builder {
        private var entries: [(hash: UInt64, value: UInt32)] = []

        mutating func reserve(_ count: Int) { entries.reserveCapacity(count) }

        /// Adds a name given as normalized UTF-8 bytes; empty names are skipped.
        mutating func add(normalized bytes: [UInt8], feature: Int, match: Match) {
            guard !bytes.isEmpty else { return }
            entries.append((NameIndex.hash(bytes), UInt32(feature) << 2 | match.rawValue))
        }

        /// Sorts, and keeps one entry per (name, feature): the best match (lowest raw value). Sorts in
        /// place and empties the builder: a sorted copy of a million entries would be 15 MB more at
        /// the gazetteer's peak.
        mutating func build() -> NameIndex {
            entries.sort { $0.hash != $1.hash ? $0.hash < $1.hash : $0.value < $1.value }
            defer { entries = [] }
            var hashes: [UInt64] = []
            var values: [UInt32] = []
            hashes.reserveCapacity(entries.count)
            values.reserveCapacity(entries.count)
            for entry in entries {
                if let last = hashes.last, last == entry.hash, values.last! >> 2 == entry.value >> 2 { continue }
                hashes.append(entry.hash)
                values.append(entry.value)
            }
            return NameIndex(hashes: hashes, values: values)
        }
    }

    var count: Int { hashes.count }

    /// Every feature with this normalized name.
    func hits(normalized bytes: [UInt8]) -> [Hit] {
        guard !bytes.isEmpty else { return [] }
        let hash = Self.hash(bytes)
        var low = hashes.lowerBound(of: hash)
        var hits: [Hit] = []
        while low < hashes.count, hashes[low] == hash {
            let value = values[low]
            hits.append(Hit(feature: Int(value >> 2), match: Match(rawValue: value & 3)!))
            low += 1
        }
        return hits
    }

    /// Whether some feature has this normalized name (or code): `hits` without building them.
    func contains(normalized bytes: [UInt8]) -> Bool {
        guard !bytes.isEmpty else { return false }
        let hash = Self.hash(bytes)
        let low = hashes.lowerBound(of: hash)
        return low < hashes.count && hashes[low] == hash
    }

    /// FNV-1a, 64 bits: deterministic and fast on short strings.
    static func hash(_ bytes: [UInt8]) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01B3
        }
        return hash
    }
}

extension Array where Element == UInt64 {
    /// The first index whose value is not below `value`, in an ascending array (binary search).
    func lowerBound(of value: UInt64) -> Int {
        var low = 0
        var high = count
        while low < high {
            let middle = (low + high) / 2
            if self[middle] < value { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
