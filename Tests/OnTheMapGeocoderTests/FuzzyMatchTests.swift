@testable import OnTheMapGeocoder
import Testing

/// A typo is forgiven only towards a likely answer, and says so.
@Suite struct FuzzyMatchTests {
    /// A big city is a likely answer alone; a town of 32,000 only with its state.
    @Test func aTypoReachesASmallTownOnlyWithItsRegion() throws {
        #expect(Shared.best("Wala Walla") == nil)
        #expect(Shared.best("Wala Walla, WA")?.name == "Walla Walla, Washington, United States")
        let seattle = Shared.geocoder.lookup("Seatle", limit: 5)
        #expect(seattle.results.first?.name == "Seattle, Washington, United States")
        #expect(seattle.doubts == [.typo] && seattle.confidence == .low)
    }

    /// Four letters or fewer are never guessed at ("Lodn" is no London, "Pari" no Paris).
    @Test(arguments: ["Lodn", "Pari", "Rmoe", "Tokio2"])
    func aShortWordIsNeverGuessedAt(text: String) {
        #expect(Shared.geocoder.lookup(text, limit: 1).doubts.contains(.typo) == false)
    }

    /// Another name of a village (GeoNames lists "Moon", German for the island of Muhu, for Liiva)
    /// is no answer alone; the village's own name answers, not a typo's guess.
    @Test func aVillagesOtherNameAloneIsNoAnswer() {
        #expect(Shared.best("Liyva")?.name.hasPrefix("Liiva") != true)
        #expect(Shared.best("Liiva")?.name.hasPrefix("Liiva") == true)
    }
}
