@testable import OnTheMapGeocoder
import Testing

/// Nobody's junk becomes a pin, and what looks like junk but is a place still answers.
@Suite struct JunkTests {
    @Test(arguments: [
        // Emoticons and kaomoji; one character of any script.
        "¯\\_(ツ)_/¯", "(ಠ_ಠ)", "(╯°□°）╯︵ ┻━┻", "o_O", "T_T", "^_^", ":)", "<3", "😀", "x", "ツ", "北", "---",
        // Phone numbers, e-mail addresses, URLs.
        "+1 (555) 123-4567", "555-123-4567", "+44 20 7946 0958", "03-1234-5678", "john@example.com",
        "https://example.com", "www.udacity.com",
        // Celestial bodies, fiction and jokes, alone or in a sentence.
        "on Mars", "the Moon", "Jupiter", "Saturn", "Pluto", "planet earth", "outer space", "living on the moon",
        "Narnia", "somewhere in Narnia", "Hogwarts", "Middle Earth", "Wakanda", "Westeros", "Neverland", "the matrix",
        "the Shire", "Gotham City", "Emerald City", "home sweet home", "the cloud",
    ])
    func junkGetsNoAnswer(text: String) {
        #expect(Shared.best(text) == nil, "\(text) → \(Shared.best(text)?.name ?? "")")
    }

    @Test(arguments: [
        ("L.A.", "US"), ("D.C.", "US"), ("U.K.", "GB"), ("94043", "US"), ("94043-1351", "US"), ("100-0001", "JP"),
        ("Mars, PA", "US"), ("Jupiter, FL", "US"), ("Hell, Norway", "NO"), ("Home, WA", "US"), ("22.4997, 88.3770", ""),
        ("Lima_Peru", "PE"), ("Salt Lake City", "US"),
    ])
    func placesThatLookOddStillAnswer(text: String, country: String) throws {
        let best = try #require(Shared.best(text), "no answer for \(text)")
        #expect(best.countryCode == country, "\(text) → \(best.name)")
    }

    @Test func theRulesAloneReadTheShapesOfJunk() {
        #expect(JunkText.isPhoneNumber("+1 (555) 123-4567") && JunkText.isPhoneNumber("555.123.4567"))
        #expect(!JunkText.isPhoneNumber("123-4567") && !JunkText.isPhoneNumber("94043-1351") && !JunkText.isPhoneNumber("01310-100"))
        #expect(JunkText.isAddressOnTheInternet("me@uni.edu") && !JunkText.isAddressOnTheInternet("@ home in Lima"))
        #expect(JunkText.hasTooFewLetters("ツ") && !JunkText.hasTooFewLetters("東京") && !JunkText.hasTooFewLetters("12345"))
    }
}
