@testable import OnTheMapGeocoder
import Testing

/// Big cities answer in the scripts students write them in, also where GeoNames
/// spells them otherwise or not at all; an ordinary word in another script stays unanswered.
@Suite struct EveryScriptTests {
    @Test(arguments: [
        // Spellings GeoNames lists otherwise: the nasal, long vowels (Hindi), the other Chinese characters.
        ("इंदौर", "IN", 22.72, 75.86, [GeocodeDoubt]()),
        ("बेंगलुरु", "IN", 12.97, 77.59, []),
        ("纽约", "US", 40.71, -74.01, []),
        ("హైదరాబాద్", "IN", 17.38, 78.46, []),
        // No entry in the script: the name by its sound in Latin letters, less sure.
        ("వరంగల్", "IN", 18.00, 79.58, [.transliterated]),
        ("桃園", "TW", 24.99, 121.30, [.transliterated]),
        ("રાજકોટ", "IN", 22.29, 70.79, [.transliterated, .typo]),
    ] as [(String, String, Double, Double, [GeocodeDoubt])])
    func aCityAnswersInItsScript(text: String, country: String, latitude: Double, longitude: Double, doubts: [GeocodeDoubt]) throws {
        let answer = Shared.geocoder.lookup(text, limit: 1)
        let best = try #require(answer.results.first, "no answer for \(text)")
        #expect(best.countryCode == country && abs(best.latitude - latitude) < 0.3 && abs(best.longitude - longitude) < 0.3, "\(text) → \(best.name)")
        #expect(answer.doubts == doubts)
    }

    /// Words, not places: "work" and "hello" must not sound like Rabat or Şaḩam.
    @Test(arguments: ["работа", "ሰላም", "नमस्ते", "こんにちは", "你好", "안녕하세요", "สวัสดี", "שלום"])
    func anOrdinaryWordIsNoPlace(text: String) {
        #expect(Shared.best(text) == nil, "\(text) → \(Shared.best(text)?.name ?? "")")
    }
}
