import OnTheMapGeocoder
import Testing

/// Issue 12, item 3: postcodes by country format, never a foreign postcode read as a US ZIP, and an
/// address whose street is unknown answered by the town it names, at city precision.
@Suite struct ForeignAddressTests {
    @Test(arguments: [
        ("75001 Paris", "Paris, Île-de-France, France"),                    // 75001 is also Addison, Texas
        ("Rue de Rivoli 99, 75001 Paris", "Paris, Île-de-France, France"),
        ("80331 München", "Munich, Bavaria, Germany"),
        ("Friedrichstraße 43, 10117 Berlin", "Berlin, State of Berlin, Germany"),
        ("Via del Corso 12, 00186 Roma", "Rome, Lazio, Italy"),
        ("Calle de Alcalá 50, 28014 Madrid", "Madrid, Spain"),
        ("10 Downing Street, London SW1A 2AA", "London, England, United Kingdom"),
        ("Cambridge CB2 1TN", "Cambridge, England, United Kingdom"),           // not Cambridge, Massachusetts
        ("Ottawa, ON K1A 0A9", "Ottawa, Ontario, Canada"),
        ("Dam 1, 1012 JS Amsterdam", "Amsterdam, North Holland, The Netherlands"),
        ("Melbourne VIC 3000", "Melbourne, Victoria, Australia"),
        ("Mumbai 400001", "Mumbai, Maharashtra, India"),
        ("Osaka 530-0001", "Osaka, Japan"),
        ("São Paulo - SP, 01310-100", "São Paulo, Brazil"),
    ])
    func answersTheTownAtCityPrecision(query: String, name: String) throws {
        let result = try #require(Shared.best(query), "\(query)")
        #expect(result.name == name, "\(query)")
        #expect(result.accuracy == .city, "\(query)")
    }

    @Test func aUSZipStillAnswersWhenTheTextAgrees() throws {
        let result = try #require(Shared.best("Paris, TX 75460"))
        #expect(result.accuracy == .postcode && result.countryCode == "US")
        #expect(try #require(Shared.best("75001")).name.hasPrefix("75001 Addison"))
    }

    @Test func aForeignFormatIsNeverAZip() {
        // "SW1A 2AA" alone names no town: nothing rather than a US ZIP or a guess.
        #expect(Shared.geocoder.geocode("SW1A 2AA").allSatisfy { $0.countryCode != "US" })
        #expect(Shared.geocoder.geocode("Berlin 10117").first?.countryCode == "DE")
    }
}
