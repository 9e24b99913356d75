@testable import OnTheMapGeocoder
import Testing

/// An address degrades to its city in every postcode country, with or without a
/// postcode, commas or the country's own order; a district word never outranks the city and the
/// postcode typed with it; the script of the text names the country of its postcode.
@Suite struct AddressReadingTests {
    @Test(arguments: [
        // The town after the street, without commas.
        ("strobelallee 50 44139 dortmund", "DE", 51.51, 7.47),
        ("coolsingel 40 rotterdam centrum", "NL", 51.92, 4.48),
        ("1600 pennsylvania ave nw washington dc", "US", 38.90, -77.04),
        ("piazza san marco 1 venezia", "IT", 45.44, 12.33),
        ("mg rd bangalore 560001", "IN", 12.97, 77.59),
        // A street written before its name, no number: the town ends the text.
        ("place du capitole toulouse", "FR", 43.60, 1.44),
        // Korean and Japanese addresses, city first, with and without a postcode.
        ("서울특별시 종로구 사직로 161", "KR", 37.57, 126.98),
        ("48060 부산 해운대구 APEC로 55", "KR", 35.17, 129.13),
        ("東京都千代田区丸の内1丁目9-1", "JP", 35.69, 139.75),
        ("大阪府大阪市中央区大阪城1-1", "JP", 34.69, 135.50),
        // A district word, a colonia, a province code the gazetteer lacks.
        ("Macedonio Alcalá s/n, Centro, 68000 Oaxaca de Juárez, Oax.", "MX", 17.06, -96.72),
        ("Av. Juárez s/n, Centro Histórico, 06050 Ciudad de México, CDMX", "MX", 19.43, -99.13),
        ("Piazza del Duomo, 20122 Milano MI", "IT", 45.46, 9.19),
        // A compass word ending a street is no region ("North", Cameroon).
        ("City Hall, Donegall Square North, Belfast BT1 5GS", "GB", 54.60, -5.93),
        ("г. Москва, Красная площадь, 1, 109012", "RU", 55.75, 37.62),
    ])
    func anAddressAnswersItsCity(text: String, country: String, latitude: Double, longitude: Double) throws {
        try Shared.expectAnswer(text, in: country, near: latitude, longitude, within: 0.4)
    }

    /// "48060" alone is a US ZIP; typed with Hangul it is Korean, with kana Japanese.
    @Test func theScriptNamesThePostcodesCountry() {
        #expect(Shared.best("48060")?.countryCode == "US")
        #expect(Shared.best("48060 해운대구")?.countryCode == "KR")
        #expect(QueryParser.parse("〒100-0005 まるのうち").scriptCountry == "JP")
        #expect(QueryParser.parse("北京").scriptCountry == nil)
    }
}
