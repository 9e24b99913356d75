import Foundation
@testable import OnTheMapGeocoder
import Testing

/// The reader of the words around a place, as a grammar (against a few names)
/// and through the whole geocoder, in each of the web app's twelve languages.
@Suite struct ContextReaderTests {
    static let reader: ContextReader = {
        let url = Gazetteer.bundledDataDirectory.appendingPathComponent("reader.tsv")
        let text = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
        return try! ContextReader(lines: text.split(separator: "\n").filter { !$0.hasPrefix("#") && !$0.allSatisfy(\.isWhitespace) })
    }()

    /// Names the grammar tests treat as places as they stand.
    static let names: Set<String> = [
        "greater sudbury", "central african republic", "in", "wa", "metro manila", "a coruna", "home",
        // Without spaces, a phrase comes off only when a name is left.
        "上海", "北京", "東京", "名古屋", "大阪", "今治", "pointe a pitre",
    ]

    /// Places a student would mean inside a sentence (also names), and the qualifiers among names.
    static let places: Set<String> = [
        "dublin", "rosario", "cordoba", "austin", "paris", "bonn", "gera", "nice", "san", "gaziantep", "malatya", "van", "tours",
        "казань", "武汉", "长沙", "厦门", "argentina",
    ]
    static let qualifiers: Set<String> = ["argentina", "tx", "wa"]

    nonisolated(unsafe) static let words = PlaceWords(
        isName: { let text = String(decoding: $0, as: UTF8.self); return names.contains(text) || places.contains(text) || qualifiers.contains(text) || text == "since" },
        isPlace: { places.contains(String(decoding: $0, as: UTF8.self)) },
        isQualifier: { qualifiers.contains(String(decoding: $0, as: UTF8.self)) })

    /// The reader's parts for `parts` as typed, each normalized as the parser does.
    static func read(_ parts: [String], nowFrom: Int? = nil) -> [String] {
        reading(parts, nowFrom: nowFrom).parts.map { String(decoding: $0, as: UTF8.self) }
    }

    static func reading(_ parts: [String], nowFrom: Int? = nil) -> ContextReader.Reading {
        reader.read(parts.map { Array(TextNormalizer.normalize($0).utf8) }, nowFrom: nowFrom, words: words)
    }

    @Test(arguments: [
        // English: position, area, time, living.
        (["close to Lima"], ["lima"]),
        (["just north of Boston"], ["boston"]),
        (["moved to Santiago last year"], ["santiago"]),
        (["Phoenix metro area"], ["phoenix"]),
        (["home: Quito"], ["quito"]),
        (["currently living in Nairobi for the summer"], ["nairobi"]),
        (["I'm based in Accra"], ["accra"]),
        (["Quito", "currently"], ["quito"]),
        // Spanish, Portuguese, French, German.
        (["cerca de Bogotá"], ["bogota"]),
        (["vivo en Medellín actualmente"], ["medellin"]),
        (["perto de Curitiba"], ["curitiba"]),
        (["moro em Recife e região"], ["recife"]),
        (["près de Lyon"], ["lyon"]),
        (["J'habite à Marseille"], ["marseille"]),
        (["in der Nähe von München"], ["munchen"]),
        (["Raum Stuttgart"], ["stuttgart"]),
        // Russian, Arabic, Hindi.
        (["Казань и окрестности"], ["казань"]),
        (["рядом с Казань"], ["казань"]),
        (["بالقرب من القاهرة"], ["القاهرة"]),
        (["दिल्ली के पास"], ["दिल्ली"]),
        (["मैं मुंबई में रहता हूँ"], ["मुंबई"]),
        // Chinese and Japanese, written without spaces.
        (["上海附近"], ["上海"]),
        (["我住在北京"], ["北京"]),
        (["東京在住"], ["東京"]),
        (["名古屋近郊"], ["名古屋"]),
        (["我住在北京附近"], ["北京"]),
        (["東京在住です"], ["東京"]),
        (["現在", "東京"], ["東京"]),
        // Turkish and Indonesian.
        (["İstanbul yakınında"], ["istanbul"]),
        (["dekat Bandung"], ["bandung"]),
        (["tinggal di Surabaya sekarang"], ["surabaya"]),
    ])
    func contextWordsAreReadAway(typed: [String], expected: [String]) {
        #expect(Self.read(typed) == expected.map { TextNormalizer.normalize($0) })
    }

    @Test(arguments: [
        // Where the student is now wins over where they came from.
        (["from Lima", "now in Quito"], nil, ["quito"]),
        (["originally from Lima", "living in Quito", "Ecuador"], nil, ["quito", "ecuador"]),
        (["moved from Lima to Quito"], nil, ["quito"]),
        (["von Berlin nach München"], nil, ["munchen"]),
        (["soy de Lima", "ahora en Quito"], nil, ["quito"]),
        (["大阪出身", "東京在住"], nil, ["東京"]),
        (["从北京到上海"], nil, ["上海"]),
        (["Lima", "Peru", "Quito"], 2, ["quito"]),
        // An origin alone is still the answer, with its qualifier.
        (["from Seattle", "WA"], nil, ["seattle", "wa"]),
        // A place whose name holds a "to" is not split ("à" in Pointe-à-Pitre).
        (["originaire de Pointe-à-Pitre"], nil, ["pointe a pitre"]),
    ] as [([String], Int?, [String])])
    func theStudentIsWhereTheyAreNow(typed: [String], nowFrom: Int?, expected: [String]) {
        #expect(Self.read(typed, nowFrom: nowFrom) == expected)
    }

    /// What was read away is kept: the origin becomes another candidate, and any reading makes
    /// the answer less sure.
    @Test func aReadingSaysWhatItReadAway() {
        func reading(_ parts: [String], nowFrom: Int? = nil) -> ContextReader.Reading { Self.reading(parts, nowFrom: nowFrom) }
        let bytes = { (text: String) in Array(text.utf8) }
        #expect(reading(["from Lima", "now in Quito"]) == .init(parts: [bytes("quito")], origins: [bytes("lima")], readContext: true))
        #expect(reading(["Lima", "Quito"], nowFrom: 1) == .init(parts: [bytes("quito")], origins: [bytes("lima")], readContext: true))
        #expect(reading(["close to Lima"]) == .init(parts: [bytes("lima")], readContext: true))
        #expect(reading(["Seattle", "WA"]) == .init(parts: [bytes("seattle"), bytes("wa")]))
        #expect(reading(["Greater Sudbury"]) == .init(parts: [bytes("greater sudbury")]))
    }

    /// The second pass: a place inside a sentence whose other words the table does not know.
    @Test(arguments: [
        (["studying at UCD in Dublin"], ["dublin"]),
        (["soy de Rosario pero vivo en Córdoba", "Argentina"], ["cordoba", "argentina"]),
        (["living in Austin TX these days"], ["austin tx"]),
        (["moved to Austin TX a while back"], ["austin", "tx"]),
        // A name after the place that is a town, not a region, is no qualifier ("Sincé").
        (["in Paris since"], ["paris"]),
        (["учусь в Казани"], ["казань"]),
        (["Gaziantep'ten Malatya'ya taşındım"], ["malatya"]),
        (["现在在武汉工作"], ["武汉"]),
        (["从长沙搬到了厦门"], ["厦门"]),
        // In Latin letters a town that is also a word counts only beside a phrase; a short Turkish
        // ending only beside a Turkish phrase.
        (["nice place"], ["nice place"]),
        (["san deigo"], ["san deigo"]),
        (["gerade in Bonn"], ["bonn"]),
        // "de X à Y": from one place to the next.
        (["j'ai déménagé de Paris à Tours"], ["tours"]),
        // An ordinary word that is also a town is no place inside a sentence.
        (["I live in a van down by the river"], ["van down by the river"]),
    ])
    func aPlaceInsideASentenceIsFound(typed: [String], expected: [String]) {
        #expect(Self.read(typed) == expected)
    }

    @Test(arguments: [
        // Names that start or end with a context word, codes that are words, and words alone.
        ["Greater Sudbury"], ["Central African Republic"], ["Metro Manila"], ["A Coruña"], ["Indianapolis", "IN"],
        ["Home", "WA"], ["near"], ["currently"], ["Seattle", "WA"], ["今治市"],
        // A name that ends like a Turkish ending keeps it; a short ending alone is not read.
        ["Canada"], ["Granada"], ["istanbulda"],
    ])
    func namesAndLoneWordsAreLeftAlone(typed: [String]) {
        #expect(Self.read(typed) == typed.map { TextNormalizer.normalize($0) })
    }

    @Test func anArrowOrAFullWidthCommaSplitsTheText() {
        #expect(QueryParser.parse("Lima, Peru → Quito").nowFrom == 2)
        #expect(QueryParser.parse("Lima -> Quito -> Cuenca").nowFrom == 2)
        #expect(QueryParser.parse("Lima, Quito").nowFrom == nil)
        #expect(QueryParser.parse("大阪出身、東京在住").parts.count == 2)
    }

    /// Through the whole geocoder: the town that was named, not its country, state or a namesake.
    @Test(arguments: [
        ("close to Lima", "PE", -12.05, -77.04),
        ("moved to Santiago last year", "CL", -33.45, -70.67),
        ("Phoenix metro area", "US", 33.45, -112.07),
        ("home: Quito", "EC", -0.22, -78.51),
        ("from Lima, now in Quito", "EC", -0.22, -78.51),
        ("Lima → Quito", "EC", -0.22, -78.51),
        ("cerca de Bogotá", "CO", 4.61, -74.08),
        ("perto de Curitiba", "BR", -25.43, -49.27),
        ("près de Lyon", "FR", 45.76, 4.84),
        ("in der Nähe von München", "DE", 48.14, 11.58),
        ("von Berlin nach München", "DE", 48.14, 11.58),
        ("Казань и окрестности", "RU", 55.79, 49.12),
        ("بالقرب من القاهرة", "EG", 30.04, 31.24),
        ("上海附近", "CN", 31.22, 121.46),
        ("東京在住", "JP", 35.69, 139.69),
        ("İstanbul yakınında", "TR", 41.01, 28.95),
        ("dekat Bandung", "ID", -6.92, 107.61),
        ("Bay Area", "US", 37.75, -122.27),
        // Two towns after a slash: the second is where the student is now; a label; French elision;
        // a year is no postcode (not even Dutch "2019 IN").
        ("Kansas City / San Diego", "US", 32.72, -117.16),
        ("ubicación: Mérida, Yucatán", "MX", 20.97, -89.62),
        ("près d'Annecy", "FR", 45.90, 6.13),
        ("étudiante à l'université de Montpellier", "FR", 43.61, 3.88),
        ("lebe seit 2019 in Basel", "CH", 47.56, 7.57),
        // Russian cases: the place is read in the nominative.
        ("живу в Москве", "RU", 55.76, 37.62),
        ("под Москвой", "RU", 55.76, 37.62),
        ("я из Казани", "RU", 55.79, 49.12),
        ("сейчас в Санкт-Петербурге", "RU", 59.94, 30.31),
        ("в Новосибирске", "RU", 55.03, 82.92),
        // Turkish endings on the place, the apostrophe dropped by normalization.
        ("İstanbul'da yaşıyorum", "TR", 41.01, 28.95),
        ("İstanbul'un yakınında", "TR", 41.01, 28.95),
        ("Ankara'ya taşındım", "TR", 39.93, 32.86),
        ("Ankara'dayım", "TR", 39.93, 32.86),
        ("aslen Sivaslıyım", "TR", 39.75, 37.02),
        ("我住在北京附近", "CN", 39.90, 116.40),
        ("東京在住です", "JP", 35.69, 139.69),
    ])
    func sentencesAnswerTheirTown(text: String, country: String, latitude: Double, longitude: Double) throws {
        try Shared.expectAnswer(text, in: country, near: latitude, longitude, within: 0.5)
    }

    @Test func wordsAroundNoPlaceStillAnswerNothing() {
        for text in ["near", "close to nowhere", "currently", "somewhere near here", "moved to the moon"] {
            #expect(Shared.best(text) == nil, "\(text) → \(Shared.best(text)?.name ?? "")")
        }
    }
}
