/// The reader's second pass: a place inside a sentence ("studying at UCD in Dublin", "soy de Rosario
/// pero vivo en Córdoba", "现在在武汉工作", "учусь в Казани"), where the words around it are not all
/// phrases the table knows. Reads a part left to right:
/// - a run of up to four words that names a place (`isPlace`: a country, a region or a town of some
///   size, never a code or a stopword) is a place; the longest run wins, unless a phrase of the table
///   starts at the same word and is as long ("centro de Santos": "centro" is a phrase here);
/// - a phrase of the table is skipped, and the role it gives (now, origin) goes to the next place;
/// - a name right after a place ("Austin TX", "Córdoba Argentina") is kept with it, as a qualifier;
/// - any other word is skipped.
/// In Latin letters, where ordinary words are also towns ("nice", "van", "reading") and the words
/// after a town may be a typo of its name ("san deigo"), a place counts only right after a phrase
/// ("in", "near", "vivo en") or right before one ("Minneapolis this semester"). Text without spaces
/// (Chinese, Japanese) is read as substrings of two characters or more.
extension ContextReader {
    /// What the phrases already read off a part's edges said.
    struct ScanEdges {
        /// The role of the phrase read off the start ("living in"): the first place's.
        var roleBefore = Role.context
        /// The role of the phrase read off the end ("Mersin'de yaşıyorum"): the last place's.
        var roleAfter = Role.context
        /// A phrase was read off the start: a place in Latin letters may begin the part.
        var afterPhrase = false
        /// That phrase ended in "from" ("de", "von"): with a "to" after the first place, that
        /// place is where the student came from.
        var afterFrom = false
        /// The languages of those phrases.
        var languages: Set<String> = []
        /// The words follow a street ("strobelallee 50 | dortmund"): a place in Latin letters
        /// counts anywhere, as the town of an address.
        var inAddress = false
    }

    /// The places inside a part that is not a name as it stands: an address's town, else the
    /// places of a sentence; nil when there are none to read.
    /// `alone`: the part is the whole text ("place du capitole toulouse"); beside other parts the
    /// town is one of them.
    func readInside(_ tokens: [[UInt8]], alone: Bool, edges: ScanEdges, words: PlaceWords) -> [(text: [UInt8], role: Role)]? {
        if alone, QueryParser.streetEnd(tokens) != nil {
            let places = placesInAddress(tokens, words: words)
            if !places.isEmpty { return places.map { ($0, edges.roleBefore) } }
        } else if alone, tokens.count >= 3, QueryParser.startsWithStreetWord(tokens),
                  let last = (2..<tokens.count).reversed().first(where: { words.isPlace(Self.joined(Array(tokens[$0...]))) }) {
            // A street written before its name and no number: the town is what ends the text.
            return [(Self.joined(Array(tokens[last...])), edges.roleBefore)]
        }
        return scan(tokens, edges: edges, words: words)
    }

    /// The town of an address written without commas, after its street ("1600 pennsylvania ave
    /// nw washington dc", "coolsingel 40 rotterdam centrum", "mg rd bangalore"), or anywhere in an
    /// address in another script ("서울특별시 종로구 사직로 161"); empty when it names none.
    func placesInAddress(_ tokens: [[UInt8]], words: PlaceWords) -> [[UInt8]] {
        if let end = QueryParser.streetEnd(tokens), end + 1 < tokens.count {
            let tail = Array(tokens[(end + 1)...])
            if let places = scan(tail, edges: ScanEdges(inAddress: true), words: words, wholeOnly: false) { return places.map(\.text) }
            // After a house number, the town may be a small one, or big by another of its names ("venezia").
            if words.isName(Self.joined(tail)), !words.isQualifier(Self.joined(tail)) { return [Self.joined(tail)] }
        }
        guard tokens.contains(where: { $0.contains { $0 >= 0x80 } }) else { return [] }
        return scan(tokens, edges: ScanEdges(), words: words, wholeOnly: false)?.map(\.text) ?? []
    }

    /// The places a part names, each with the role its phrases gave it; nil when it names none, or
    /// (unless `wholeOnly` is false) when every word was a place or a qualifier (the ranker reads
    /// those itself: "palo alto ca").
    func scan(_ tokens: [[UInt8]], edges: ScanEdges, words: PlaceWords, wholeOnly: Bool = true) -> [(text: [UInt8], role: Role)]? {
        let isPlace = words.isPlace
        if tokens.count == 1, let word = tokens.first, Self.isUnspaced(word) {
            return scanAttached(word, isPlace: isPlace).map(Self.smallestFirst)
        }
        var found: [(text: [UInt8], role: Role)] = []
        var lastPlace: Int?
        var lastPlaceAfterFrom = false
        var placesFound = 0
        var skippedAny = false
        var pending: Role? = edges.roleBefore == .context ? nil : edges.roleBefore
        var afterPhrase = edges.afterPhrase
        // A short Turkish ending ("gerade" is no Gera) counts only beside a Turkish phrase.
        let languages = edges.languages.union(tokens.flatMap { (before[$0] ?? []) + (afterByFirstWord[$0] ?? []) }.map(\.language))
        var index = 0
        while index < tokens.count {
            let rest = Array(tokens[index...])
            let phrase = longestPhrase(before, startingWith: rest)
            if let run = placeRun(rest, languages: languages, isPlace: isPlace), run.length > phrase?.tokens.count ?? 0 {
                let next = longestPhrase(afterByFirstWord, startingWith: Array(tokens[(index + run.length)...]))
                guard afterPhrase || edges.inAddress || next != nil || run.inflected || !Self.isLatin(run.text) else {
                    skippedAny = true
                    index += 1
                    afterPhrase = false
                    continue
                }
                var role = run.role ?? pending ?? .context
                index += run.length
                if run.inflected { skippedAny = true }
                if let next {
                    if next.role != .context { role = next.role }
                    index += next.tokens.count
                    skippedAny = true
                }
                let start = index - run.length
                lastPlaceAfterFrom = start > 0 ? Self.fromWords.contains(tokens[start - 1]) : edges.afterFrom
                lastPlace = found.count
                placesFound += 1
                found.append((run.text, role))
                // Names right after the place qualify it ("austin tx", "cordoba argentina").
                while index < tokens.count, let qualifier = qualifierRun(Array(tokens[index...]), isQualifier: words.isQualifier) {
                    found.append((qualifier.text, role))
                    index += qualifier.length
                }
                pending = nil
                afterPhrase = false
                continue
            }
            skippedAny = true
            // "de Paris à Tours", "de Maceió pra João Pessoa": from one place to the next.
            if let from = lastPlace, lastPlaceAfterFrom, between.contains(rest[0]), found[from].role == .context {
                found[from].role = .origin
                pending = .now
                afterPhrase = true
                index += 1
                continue
            }
            // A word of Chinese or Japanese holds its places without spaces ("東京都千代田区丸の内1丁目").
            if Self.isUnspaced(rest[0]), let places = scanAttached(rest[0], isPlace: isPlace) {
                found += places
                index += 1
                afterPhrase = false
                continue
            }
            if let phrase {
                if phrase.role != .context { pending = phrase.role }
                index += phrase.tokens.count
                afterPhrase = true
            } else {
                index += 1
                afterPhrase = false
            }
        }
        // Two places and nothing else is read here too when the ranker cannot ("台灣 高雄": the
        // country first, as East Asian addresses go).
        guard skippedAny || !wholeOnly || placesFound >= 2, !found.isEmpty else { return nil }
        if let lastPlace, edges.roleAfter != .context { found[lastPlace].role = edges.roleAfter }
        return Self.smallestFirst(Self.nowOverContext(found))
    }

    /// Places in text written without spaces: from the start, the longest substring of two
    /// characters or more that is a place; the role comes from an attached phrase just before
    /// ("从长沙", "现在在武汉") or just after ("東京在住", "大阪出身").
    private func scanAttached(_ word: [UInt8], isPlace: ([UInt8]) -> Bool) -> [(text: [UInt8], role: Role)]? {
        let characters = Self.characterStarts(word)
        var found: [(text: [UInt8], role: Role)] = []
        var start = 0
        while start < characters.count - 1 {
            var matched = false
            for end in stride(from: min(characters.count, start + 8), through: start + 2, by: -1) {
                let from = characters[start], to = end < characters.count ? characters[end] : word.count
                let run = Array(word[from..<to])
                guard run.allSatisfy({ $0 >= 0x80 }), isPlace(run) else { continue }
                let before = Array(word[..<from]), after = word[to...]
                var role = attachedBefore.first { before.ends(with: $0.bytes) }?.role ?? .context
                if let next = attachedAfter.first(where: { after.starts(with: $0.bytes) }), next.role != .context { role = next.role }
                found.append((run, role))
                start = end
                matched = true
                break
            }
            if !matched { start += 1 }
        }
        return found.isEmpty ? nil : Self.nowOverContext(found)
    }

    /// Words for "from" that, with a "to" after the place, make it where the student came from.
    static let fromWords: Set<[UInt8]> = Set(["de", "from", "von", "aus", "desde", "depuis", "dari", "da", "из", "من"].map { Array($0.utf8) })

    /// "경기도 수원시", "京都府京都市左京区", "台灣 高雄": East Asian text goes from the province down;
    /// the ranker reads the first place as the subject, so the smallest goes first.
    private static func smallestFirst(_ found: [(text: [UInt8], role: Role)]) -> [(text: [UInt8], role: Role)] {
        guard found.count >= 2, found.allSatisfy({ $0.role == .context && $0.text.contains { (0xE3...0xED).contains($0) } }) else {
            return found
        }
        return found.reversed()
    }

    /// A place named next to one the student came from is where they are now ("soy de Rosario
    /// pero vivo en Córdoba" reads "vivo en" as now; "从长沙搬到了厦门" has no phrase before 厦门).
    private static func nowOverContext(_ found: [(text: [UInt8], role: Role)]) -> [(text: [UInt8], role: Role)] {
        guard found.contains(where: { $0.role == .origin }), !found.contains(where: { $0.role == .now }) else { return found }
        return found.map { ($0.text, $0.role == .context ? .now : $0.role) }
    }

    /// The longest run of one to four words at the start of `tokens` that is a place, perhaps in a
    /// Russian case ("казани" → "казань") or with a Turkish ending ("eskisehirde"): `inflected`, the
    /// ending says "in", "from" or "to" as a phrase would.
    private func placeRun(
        _ tokens: [[UInt8]], languages: Set<String>, isPlace: ([UInt8]) -> Bool
    ) -> (text: [UInt8], length: Int, inflected: Bool, role: Role?)? {
        for length in stride(from: min(4, tokens.count), through: 1, by: -1) {
            let words = Array(tokens[..<length])
            let text = Self.joined(words)
            if ordinaryWords.contains(text) { continue }
            if isPlace(text) { return (text, length, false, nil) }
            if let nominative = CyrillicCases.nominative(of: words, isName: isPlace) { return (Self.joined(nominative), length, true, nil) }
            if let stem = turkishStem(words, languages: languages, isPlace: isPlace) { return (stem.text, length, true, stem.role == .context ? nil : stem.role) }
        }
        return nil
    }

    /// A run of one or two words at the start of `tokens` that qualifies a place, not a phrase word.
    private func qualifierRun(_ tokens: [[UInt8]], isQualifier: ([UInt8]) -> Bool) -> (text: [UInt8], length: Int)? {
        for length in stride(from: min(2, tokens.count), through: 1, by: -1) {
            let text = Self.joined(Array(tokens[..<length]))
            if isQualifier(text), before[tokens[0]] == nil, after[tokens[0]] == nil { return (text, length) }
        }
        return nil
    }

    /// "eskisehirde" → "eskisehir", when the stem is a place of four letters or more (three with an
    /// ending of four or more: "vanli"), and its role ("izmirliyim": from Izmir). An ending under four
    /// letters only beside a phrase of its language.
    private func turkishStem(_ words: [[UInt8]], languages: Set<String>, isPlace: ([UInt8]) -> Bool) -> (text: [UInt8], role: Role)? {
        guard let last = words.last, last.allSatisfy({ $0 < 0x80 }) else { return nil }
        for suffix in suffixes where last.count >= suffix.bytes.count + (suffix.bytes.count >= 4 ? 3 : 4) && last.ends(with: suffix.bytes)
            && (suffix.bytes.count >= 4 || languages.contains(suffix.language)) {
            var stemmed = words
            stemmed[stemmed.count - 1] = Array(last.dropLast(suffix.bytes.count))
            let text = Self.joined(stemmed)
            if isPlace(text) { return (text, suffix.role) }
        }
        return nil
    }

    /// The longest phrase of `table` (keyed by its first word) that `tokens` start with.
    private func longestPhrase(_ table: [[UInt8]: [Phrase]], startingWith tokens: [[UInt8]]) -> Phrase? {
        guard let word = tokens.first else { return nil }
        return table[word]?.first { tokens.starts(with: $0.tokens) }
    }

    /// Byte offsets where each UTF-8 character of `word` starts.
    private static func characterStarts(_ word: [UInt8]) -> [Int] {
        word.indices.filter { word[$0] & 0xC0 != 0x80 }
    }

    private static func isLatin(_ text: [UInt8]) -> Bool { text.allSatisfy { $0 < 0x80 } }

    /// Chinese or Japanese (Han, kana: UTF-8 lead bytes E3 to E9), written without spaces; not
    /// Korean, whose words are spaced.
    static func isUnspaced(_ word: [UInt8]) -> Bool { word.contains { (0xE3...0xE9).contains($0) } }
}
