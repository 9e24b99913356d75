/// index.html cut once, at start, at the places the first page edits (`FirstPage`): a variant is
/// then the pieces between those places joined with its edits. Editing the text place by place
/// searched the whole page (some 40 KB, through NSString on Linux) twice per edit for each of the
/// 24 variants at every start: with a test run's hundreds of servers starting at once, that was a
/// quarter of its CPU, and every live server answered late meanwhile.
struct FirstPageTemplate: Sendable {
    /// A place the page is edited, by the text that marks it (which must be there once).
    enum Place: CaseIterable, Sendable {
        case html, entryScript, headEnd, loginScreen, bootLoading

        var anchor: String {
            switch self {
            case .html: "<html lang=\"en\">"
            case .entryScript: "<script src=\"/js/main.js\" type=\"module\"></script>"
            case .headEnd: "</head>"
            case .loginScreen: "<main id=\"login-screen\" class=\"auth-screen\" hidden>"
            case .bootLoading: "<div id=\"boot-loading\" class=\"boot-loading\" role=\"status\">"
            }
        }
    }

    /// The text before each place, in the page's order, then the text after the last.
    private let pieces: [Substring]
    private let places: [Place]

    /// Fails when a place is missing or marked twice (the page was changed without this).
    init(_ template: String) throws {
        var found: [(place: Place, range: Range<String.Index>)] = []
        for place in Place.allCases {
            let ranges = template.ranges(of: place.anchor)
            guard ranges.count == 1 else {
                throw StaticAssetLoader.LoadError(description: "the web client's index.html must hold `\(place.anchor)` once: the first page is made by editing it")
            }
            found.append((place, ranges[0]))
        }
        found.sort { $0.range.lowerBound < $1.range.lowerBound }
        var pieces: [Substring] = []
        var start = template.startIndex
        for (place, range) in found {
            guard range.lowerBound >= start else {
                throw StaticAssetLoader.LoadError(description: "the web client's index.html marks `\(place.anchor)` inside another place the first page edits")
            }
            pieces.append(template[start..<range.lowerBound])
            start = range.upperBound
        }
        pieces.append(template[start...])
        self.pieces = pieces
        places = found.map(\.place)
    }

    /// The page with each place replaced by `edit(place)`, or left as it is where that is nil.
    func filled(_ edit: (Place) -> String?) -> String {
        let edits = places.map { edit($0) ?? $0.anchor }
        var page = ""
        page.reserveCapacity(pieces.reduce(0) { $0 + $1.utf8.count } + edits.reduce(0) { $0 + $1.utf8.count })
        for (piece, replacement) in zip(pieces, edits) {
            page += piece
            page += replacement
        }
        page += pieces[pieces.count - 1]
        return page
    }
}
