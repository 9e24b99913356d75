/// Reads the words students put around a place ("close to Lima", "moved to Santiago last year",
/// "from Lima, now in Quito", "東京在住", "दिल्ली के पास") so that the place alone is looked up.
///
/// A small grammar over the parts of a parsed query, in three steps:
/// 1. each part loses the context phrases before and after its place (`reader.tsv`: position,
///    area and time words, in the twelve languages of the web app), longest phrase first, as long
///    as a place is left and the words are not themselves a place's name ("Greater Sudbury");
/// 2. a phrase may mark its part as where the student is now ("living in", "moved to", "在住") or
///    where they came from ("from", "originally from", "出身"); "from X to Y" in one part splits in
///    two; an arrow between parts ("Lima → Quito") marks what follows as now;
/// 3. when a part says now, the parts that say origin are dropped: the student is where they are now.
/// A Russian place in the case its sentence gave it ("в Москве") is read in the nominative.
struct ContextReader: Sendable {
    enum Role: Sendable { case context, now, origin }

    struct Phrase: Sendable {
        let tokens: [[UInt8]]
        let role: Role
        var language = ""
    }

    /// Endings a language adds to the place itself ("istanbulda": in Istanbul), by language, longest
    /// first. A short one (under four letters) is read only in a part where a phrase of its language
    /// was read ("istanbulda yasiyorum"); a long one alone ("izmirliyim": I am from Izmir).
    private(set) var suffixes: [(bytes: [UInt8], role: Role, language: String)] = []

    /// Phrases of scripts written with spaces, by their first word (before the place) or last
    /// word (after it), longest first.
    private(set) var before: [[UInt8]: [Phrase]] = [:]
    private(set) var after: [[UInt8]: [Phrase]] = [:]
    /// The phrases of `after` by their first word, for a place found inside a sentence (`scan`).
    private(set) var afterByFirstWord: [[UInt8]: [Phrase]] = [:]
    /// "to", "nach", "ke": inside a part that starts as an origin, what follows is where they are now.
    private(set) var between: Set<[UInt8]> = []
    /// Phrases of scripts written without spaces (Chinese, Japanese), matched as attached text.
    private(set) var attachedBefore: [(bytes: [UInt8], role: Role)] = []
    private(set) var attachedAfter: [(bytes: [UInt8], role: Role)] = []
    private(set) var attachedBetween: [[UInt8]] = []
    /// Ordinary words that are also towns' names ("van", "nice"): inside a sentence ("I live in a
    /// van"), not read as a place; typed as the place itself, they are.
    private(set) var ordinaryWords: Set<[UInt8]> = []
    /// "Centro", "Downtown", "Mitte": a part that is one of these beside others is dropped, though
    /// towns bear the name ("Macedonio Alcalá s/n, Centro, 68000 Oaxaca de Juárez").
    private(set) var districtWords: Set<[UInt8]> = []

    /// The lines of `reader.tsv` (role, position, language, phrase).
    init(lines: some Sequence<Substring>) throws(ReaderTableError) {
        for line in lines {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard fields.count == 4 else { throw ReaderTableError(line: String(line)) }
            let role: Role?
            switch fields[0] {
            case "context": role = .context
            case "now": role = .now
            case "origin": role = .origin
            case "to", "ordinary", "district": role = nil
            default: throw ReaderTableError(line: String(line))
            }
            let text = Array(TextNormalizer.normalize(fields[3]).utf8)
            guard !text.isEmpty else { throw ReaderTableError(line: String(line)) }
            let attached = Self.unspacedLanguages.contains(String(fields[2]))
            switch (role, fields[1], attached) {
            case (nil, "word", _) where fields[0] == "ordinary": ordinaryWords.insert(text)
            case (nil, "word", _) where fields[0] == "district": districtWords.insert(text)
            case (nil, "between", false) where fields[0] == "to": between.insert(text)
            case (nil, "between", true) where fields[0] == "to": attachedBetween.append(text)
            case (let role?, "before", false): add(Phrase(tokens: Self.words(text), role: role, language: String(fields[2])), to: &before, key: \.first)
            case (let role?, "after", false):
                let phrase = Phrase(tokens: Self.words(text), role: role, language: String(fields[2]))
                add(phrase, to: &after, key: \.last)
                add(phrase, to: &afterByFirstWord, key: \.first)
            case (let role?, "suffix", false): suffixes.append((text, role, String(fields[2])))
            case (let role?, "before", true): attachedBefore.append((text, role))
            case (let role?, "after", true): attachedAfter.append((text, role))
            default: throw ReaderTableError(line: String(line))
            }
        }
        attachedBefore.sort { $0.bytes.count > $1.bytes.count }
        attachedAfter.sort { $0.bytes.count > $1.bytes.count }
        suffixes.sort { $0.bytes.count > $1.bytes.count }
    }

    /// Languages written without spaces between words.
    private static let unspacedLanguages: Set<String> = ["zh", "ja"]

    private func add(_ phrase: Phrase, to table: inout [[UInt8]: [Phrase]], key: KeyPath<[[UInt8]], [UInt8]?>) {
        guard let word = phrase.tokens[keyPath: key] else { return }
        var phrases = table[word, default: []]
        guard !phrases.contains(where: { $0.tokens == phrase.tokens }) else { return }
        phrases.append(phrase)
        phrases.sort { $0.tokens.count > $1.tokens.count }
        table[word] = phrases
    }

    /// What the reader made of a query.
    struct Reading: Equatable {
        /// The parts left to look up.
        var parts: [[UInt8]]
        /// Where the student said they came from, dropped for where they are now ("from Lima, now
        /// in Quito": "lima"); offered as another candidate.
        var origins: [[UInt8]] = []
        /// Whether words around the place were read away: the answer is then less sure.
        var readContext = false
    }

    /// Reads `parts` (normalized, in the order typed); parts from `nowFrom` on came after an arrow.
    /// `words` answers what the gazetteer knows of words.
    func read(_ parts: [[UInt8]], nowFrom: Int? = nil, words: PlaceWords) -> Reading {
        var read: [(text: [UInt8], role: Role)] = []
        var changed = nowFrom != nil
        for (index, part) in parts.enumerated() {
            var pieces = readPart(part, alone: parts.count == 1, words: words)
            if pieces.count != 1 || pieces[0].text != part { changed = true }
            if let nowFrom {
                // An arrow: what came before it is where the student was, what follows where they are.
                for piece in pieces.indices { pieces[piece].role = index < nowFrom ? .origin : (pieces[piece].role == .origin ? .origin : .now) }
            }
            read += pieces.filter { !$0.text.isEmpty }
        }
        var reading = Reading(parts: read.map(\.text), readContext: changed)
        if read.contains(where: { $0.role == .now }) && read.contains(where: { $0.role == .origin }) {
            reading.origins = read.filter { $0.role == .origin }.map(\.text)
            reading.parts = read.filter { $0.role != .origin }.map(\.text)
        }
        return reading
    }

    /// One part without its context phrases, in one or two pieces ("moved from Lima to Quito").
    /// A part that is nothing but a phrase ("Quito, currently") is read away, unless it is the only one.
    private func readPart(_ part: [UInt8], alone: Bool, words: PlaceWords) -> [(text: [UInt8], role: Role)] {
        let isName = words.isName
        if !alone, districtWords.contains(part) { return [([], .context)] }
        // Most parts hold no phrase at all ("seattle", "wa"): known without a lookup.
        guard mayHoldContext(part) else {
            guard part.contains(UInt8(ascii: " ")), !isName(part) else { return [(part, .context)] }
            return readInside(Self.words(part), alone: alone, edges: ScanEdges(), words: words) ?? [(part, .context)]
        }
        guard !isName(part) else { return [(part, .context)] }
        var tokens = Self.words(part)
        if !alone, let phrase = whole(tokens) { return [([], phrase.role)] }
        var role = Role.context
        var languages: Set<String> = []
        func mark(_ found: Role) {
            if found != .context { role = found }
        }
        var stripping = true
        var strippedBefore = false
        var strippedFrom = false
        var roleAfter = Role.context
        while stripping, tokens.count > 1, !isName(Self.joined(tokens)) {
            stripping = false
            if let phrase = longest(before, matching: tokens, fromStart: true) {
                tokens.removeFirst(phrase.tokens.count)
                strippedBefore = true
                strippedFrom = phrase.tokens.last.map(Self.fromWords.contains) ?? false
                mark(phrase.role)
                languages.insert(phrase.language)
                stripping = true
            } else if let phrase = longest(after, matching: tokens, fromStart: false) {
                tokens.removeLast(phrase.tokens.count)
                if phrase.role != .context { roleAfter = phrase.role }
                mark(phrase.role)
                languages.insert(phrase.language)
                stripping = true
            }
        }
        stripAttached(&tokens, mark: mark, isName: isName)
        stripSuffix(&tokens, languages: languages, mark: mark, isName: isName)
        var isPlaceName = isName(Self.joined(tokens))
        if !isPlaceName, let nominative = CyrillicCases.nominative(of: tokens, isName: isName) {
            tokens = nominative
            isPlaceName = true
        }
        // "originaire de Pointe-à-Pitre" is one place, whatever its "à".
        if role == .origin, !isPlaceName, let (from, to) = splitAtBetween(tokens) {
            // Either side may still hold words around its place ("从长沙搬到了厦门": "了厦门").
            return [(from, Role.origin), (to, Role.now)].flatMap { side, role in
                let text = Self.joined(side)
                guard !isName(text), let places = scan(side, edges: ScanEdges(roleBefore: role), words: words) else { return [(text, role)] }
                return places.map { ($0.text, $0.role == .context ? role : $0.role) }
            }
        }
        let edges = ScanEdges(
            roleBefore: roleAfter == .context ? role : .context, roleAfter: roleAfter, afterPhrase: strippedBefore,
            afterFrom: strippedFrom, languages: languages)
        if !isPlaceName, let inside = readInside(tokens, alone: alone, edges: edges, words: words) { return inside }
        return [(Self.joined(tokens), role)]
    }

    /// The longest phrase of `table` that `tokens` start (or end) with, leaving a word at least.
    func longest(_ table: [[UInt8]: [Phrase]], matching tokens: [[UInt8]], fromStart: Bool) -> Phrase? {
        guard let word = fromStart ? tokens.first : tokens.last, let phrases = table[word] else { return nil }
        return phrases.first { phrase in
            phrase.tokens.count < tokens.count
                && (fromStart ? tokens.starts(with: phrase.tokens) : tokens.reversed().starts(with: phrase.tokens.reversed()))
        }
    }

    /// Whether any rule could apply to `part`: a phrase begins or ends it, a long ending ends it, or
    /// it holds letters past Latin and Greek (Cyrillic cases, Chinese and Japanese attached phrases).
    private func mayHoldContext(_ part: [UInt8]) -> Bool {
        if part.contains(where: { $0 >= 0xD0 }) { return true }
        let first = part.prefix { $0 != UInt8(ascii: " ") }
        let last = part.reversed().prefix { $0 != UInt8(ascii: " ") }.reversed()
        return before[Array(first)] != nil || after[Array(last)] != nil
            || suffixes.contains { $0.bytes.count >= 4 && part.ends(with: $0.bytes) }
    }

    /// The phrase that `tokens` are, all of them ("currently", "現在").
    private func whole(_ tokens: [[UInt8]]) -> Phrase? {
        guard let first = tokens.first, let last = tokens.last else { return nil }
        if let phrase = before[first]?.first(where: { $0.tokens == tokens }) ?? after[last]?.first(where: { $0.tokens == tokens }) {
            return phrase
        }
        guard tokens.count == 1, let attached = (attachedBefore + attachedAfter).first(where: { $0.bytes == first }) else { return nil }
        return Phrase(tokens: tokens, role: attached.role)
    }

    /// Phrases attached to the first or last word in scripts without spaces ("在上海", "東京在住",
    /// "我住在北京附近"). With no spaces to say where a word ends, phrases come off only when what
    /// is left is a place's name, or two joined by a "to" ("北京到成都"): "今治" is a town, not
    /// "now" + "治". A phrase before and one after may come off together.
    private func stripAttached(_ tokens: inout [[UInt8]], mark: (Role) -> Void, isName: ([UInt8]) -> Bool) {
        guard tokens.contains(where: Self.isUnspaced) else { return }
        func isPlace(_ word: ArraySlice<UInt8>) -> Bool {
            isName(Array(word)) || attachedBetween.contains { separator in word.firstRange(of: separator) != nil }
        }
        if tokens.count == 1, let word = tokens.first, !isName(word) {
            let befores = [nil] + attachedBefore.filter { word.count > $0.bytes.count && word.starts(with: $0.bytes) }.map(Optional.some)
            let afters = [nil] + attachedAfter.filter { word.count > $0.bytes.count && word.ends(with: $0.bytes) }.map(Optional.some)
            for before in befores {
                for after in afters where before != nil || after != nil {
                    let start = before?.bytes.count ?? 0, end = word.count - (after?.bytes.count ?? 0)
                    guard start < end, isPlace(word[start..<end]) else { continue }
                    tokens[0] = Array(word[start..<end])
                    if let before { mark(before.role) }
                    if let after { mark(after.role) }
                    return
                }
            }
            return
        }
        if let first = tokens.first, !isName(first), let affix = attachedBefore.first(where: {
            first.count > $0.bytes.count && first.starts(with: $0.bytes) && isPlace(first.dropFirst($0.bytes.count))
        }) {
            tokens[0] = Array(first.dropFirst(affix.bytes.count))
            mark(affix.role)
        }
        if let last = tokens.last, !isName(last), let affix = attachedAfter.first(where: {
            last.count > $0.bytes.count && last.ends(with: $0.bytes) && isPlace(last.dropLast($0.bytes.count))
        }) {
            tokens[tokens.count - 1] = Array(last.dropLast(affix.bytes.count))
            mark(affix.role)
        }
    }

    /// An ending on the place itself ("istanbulda" → "istanbul", "izmirliyim" → "izmir"), taken off
    /// only when the word is not a name and what is left is one of at least three letters.
    private func stripSuffix(_ tokens: inout [[UInt8]], languages: Set<String>, mark: (Role) -> Void, isName: ([UInt8]) -> Bool) {
        guard let last = tokens.last, last.allSatisfy({ $0 < 0x80 }), !isName(Self.joined(tokens)) else { return }
        for suffix in suffixes where last.count >= suffix.bytes.count + 3 && last.ends(with: suffix.bytes)
            && (suffix.bytes.count >= 4 || languages.contains(suffix.language)) {
            var stemmed = tokens
            stemmed[stemmed.count - 1] = Array(last.dropLast(suffix.bytes.count))
            guard isName(Self.joined(stemmed)) else { continue }
            tokens = stemmed
            mark(suffix.role)
            return
        }
    }

    /// "lima to quito" → ("lima", "quito"); "北京到上海" → ("北京", "上海").
    private func splitAtBetween(_ tokens: [[UInt8]]) -> (from: [[UInt8]], to: [[UInt8]])? {
        if let index = tokens.indices.dropFirst().dropLast().first(where: { between.contains(tokens[$0]) }) {
            return (Array(tokens[..<index]), Array(tokens[(index + 1)...]))
        }
        guard tokens.count == 1, let word = tokens.first else { return nil }
        for separator in attachedBetween {
            guard let range = word.firstRange(of: separator), range.lowerBound > 0, range.upperBound < word.count else { continue }
            return ([Array(word[..<range.lowerBound])], [Array(word[range.upperBound...])])
        }
        return nil
    }

    static func words(_ text: [UInt8]) -> [[UInt8]] {
        text.split(separator: UInt8(ascii: " ")).map(Array.init)
    }

    static func joined(_ tokens: [[UInt8]]) -> [UInt8] {
        Array(tokens.joined(separator: [UInt8(ascii: " ")]))
    }
}

/// What the reader asks of the gazetteer about words (normalized).
struct PlaceWords {
    /// A place's name or code, or a stopword, as the words stand: no phrase is read out of them
    /// ("greater sudbury", "in" for Indiana, "home sweet home").
    var isName: ([UInt8]) -> Bool
    /// A place a student would mean when the words stand inside a sentence (`Geocoder.isPlace`).
    var isPlace: ([UInt8]) -> Bool
    /// What may follow such a place to say where it is: a region's or a country's name or code, or
    /// a word such as "state" ("austin tx", "cordoba argentina"; not "paris since", Sincé).
    var isQualifier: ([UInt8]) -> Bool
}

struct ReaderTableError: Error, CustomStringConvertible {
    let line: String
    var description: String { "reader.tsv: bad line: \(line)" }
}
