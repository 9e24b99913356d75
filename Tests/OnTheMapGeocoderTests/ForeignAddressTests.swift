import OnTheMapGeocoder
import Testing

/// Postcodes by country format, looked up in the country the text is in, never a
/// foreign postcode read as a US ZIP, and an address whose postcode is unknown, contradicted or only
/// an estimate answered by the town it names, at city precision.
@Suite struct ForeignAddressTests {
    @Test(arguments: [
        ("75001 Paris", "75001 Paris, Île-de-France, France"),                  // 75001 is also Addison, Texas
        ("Rue de Rivoli 99, 75001 Paris", "75001 Paris, Île-de-France, France"),
        ("80331 München", "80331 München, Bavaria, Germany"),
        ("Friedrichstraße 43, 10117 Berlin", "10117 Berlin, State of Berlin, Germany"),
        ("Calle de Alcalá 50, 28014 Madrid", "28014 Madrid, Spain"),
        ("Dam 1, 1012 JS Amsterdam", "1012 Amsterdam, North Holland, The Netherlands"),   // four digits kept of six
        ("Osaka 530-0001", "530-0001 Umeda, Osaka, Japan"),
        ("00-590 Warszawa", "00-590 Warszawa, Mazovia, Poland"),
        ("Ottawa, ON K1A 0A9", "K1A Government of Canada Ottawa and Gatineau offices, Ontario, Canada"),  // the FSA
        ("SW1A 2AA", "SW1A Westminster Abbey, England, United Kingdom"),      // the outward code, no town needed
        ("Cambridge CB2 1TN", "CB2 Sawston, England, United Kingdom"),          // not Cambridge, Massachusetts
        ("Dublin D02 X285", "D02 Dublin 2, Leinster, Ireland"),                 // the Eircode's routing key
        ("San Juan, PR 00901", "00901 San Juan, Puerto Rico"),
        ("Washington 20001", "20001 Washington, District of Columbia, United States"),   // the city, not the state
        ("2770 Kastrup", "2770 Kastrup, Capital Region, Denmark"),              // a place the gazetteer lacks
        ("Nevsky Prospekt 28, Saint Petersburg 191186", "191186 Санкт-Петербург 186, St.-Petersburg, Russia"),
        ("Stade de France, 93200 Saint-Denis", "93200 Saint-Denis, Île-de-France, France"),   // not Réunion's
        ("Paris 75460", "75460 Paris, Texas, United States"),                   // Paris, France has no 75460
        // Estimates near the town typed with them: the code's point is as good as the town's.
        ("Via del Corso 12, 00186 Roma", "00186 Roma, Lazio, Italy"),
        ("Melbourne VIC 3000", "3000 Melbourne, Victoria, Australia"),
        ("10 Downing Street, London SW1A 2AA", "SW1A Westminster Abbey, England, United Kingdom"),
        ("São Paulo - SP, 01310-100", "01000-000 São Paulo, Brazil"),
    ])
    func answersThePostcode(query: String, name: String) throws {
        let result = try #require(Shared.best(query), "\(query)")
        #expect(result.name == name, "\(query)")
        #expect(result.accuracy == .postcode, "\(query)")
        #expect(result.town != nil, "\(query): a postcode's answer names its town, for sharing only the town")
    }

    @Test(arguments: [
        // Codes GeoNames only estimates, far from the town typed with them (Bangalore's 28 km
        // north; Mumbai's one point for all its codes, 17 km from Powai): the town.
        ("Bengaluru 560001", "Bengaluru, Karnataka, India"),
        ("Powai, Mumbai 400076", "Powai, Maharashtra, India"),
        // Countries without postcode data: the town.
        ("İstiklal Caddesi 10, 34433 İstanbul", "Istanbul, Turkey"),
        // Argentina's CPA says the country though no Argentine codes are listed (it found nothing).
        ("Avenida Corrientes 1000, C1043 Buenos Aires", "Buenos Aires, Buenos Aires F.D., Argentina"),
        ("C1043AAB Buenos Aires", "Buenos Aires, Buenos Aires F.D., Argentina"),
        // Codes the text contradicts: the town, never a US ZIP or a code of another city.
        ("SW1A 2AA Paris", "Paris, Île-de-France, France"),
        ("Paris 10117", "Paris, Île-de-France, France"),
        ("Berlin 99999", "Berlin, State of Berlin, Germany"),
        ("Springfield, IL 75001", "Springfield, Illinois, United States"),
    ])
    func answersTheTownWhenThePostcodeCannot(query: String, name: String) throws {
        let result = try #require(Shared.best(query), "\(query)")
        #expect(result.name == name, "\(query)")
        #expect(result.accuracy == .city, "\(query)")
    }

    @Test func theTownToShareIsTheOneTypedWithTheCode() throws {
        // Not "Paris 01 Louvre", the arrondissement nearest the code's point.
        let typed = try #require(Shared.best("Rue de Rivoli 99, 75001 Paris"))
        #expect(typed.town?.name == "Paris, Île-de-France, France")
        let alone = try #require(Shared.best("SW1A 2AA"))
        #expect(alone.town != nil && alone.town?.name.hasSuffix("United Kingdom") == true)
    }

    @Test func aCodeBetweenListedOnesAnswersItsArea() throws {
        // Brazil lists its towns' codes (São Paulo: 01000-000 to 05999-999): the listed code below.
        let result = try #require(Shared.best("01310-100"))
        #expect(result.name == "01000-000 São Paulo, Brazil" && result.accuracy == .postcode)
        // Not across areas: a code below every listed one of its first two digits finds nothing.
        #expect(Shared.geocoder.geocode("00999-999").isEmpty)
    }

    @Test func aUSZipStillAnswersWhenTheTextAgrees() throws {
        let result = try #require(Shared.best("Paris, TX 75460"))
        #expect(result.accuracy == .postcode && result.countryCode == "US")
        #expect(try #require(Shared.best("75001")).name.hasPrefix("75001 Addison"))
    }

    @Test func aForeignFormatIsNeverAZip() {
        // Formats only one country writes are looked up there alone, known or not.
        #expect(Shared.geocoder.geocode("SW1A 2AA").allSatisfy { $0.countryCode == "GB" })
        #expect(Shared.geocoder.geocode("ZZ9 9ZZ").isEmpty)
        #expect(Shared.geocoder.geocode("Berlin 10117").first?.countryCode == "DE")
    }
}
