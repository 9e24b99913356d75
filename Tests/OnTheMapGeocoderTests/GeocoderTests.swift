import OnTheMapGeocoder
import Testing

/// The traps of docs/geocoder.md, one row each: the answer's name, country and precision.
@Suite struct GeocoderTests {
    @Test(arguments: [
        ("Seattle, WA", "Seattle, Washington, United States", GeoAccuracy.city),
        ("Paris", "Paris, Île-de-France, France", .city),
        ("Paris, TX", "Paris, Texas, United States", .city),
        ("Portland, ME", "Portland, Maine, United States", .city),
        ("Portland OR", "Portland, Oregon, United States", .city),
        ("Cambridge, MA", "Cambridge, Massachusetts, United States", .city),
        ("München", "Munich, Bavaria, Germany", .city),
        ("Munchen", "Munich, Bavaria, Germany", .city),
        ("東京", "Tokyo, Japan", .city),
        ("Москва", "Moscow, Russia", .city),
        ("Chicago.IL", "Chicago, Illinois, United States", .city),
        ("Palo Alto CA", "Palo Alto, California, United States", .city),
        ("Santa Clara, CA", "Santa Clara, California, United States", .city),
        ("Costa Rica", "Costa Rica", .country),
        ("Washington", "Washington, District of Columbia, United States", .city),
        ("Washington State", "Washington, United States", .region),
        ("New York", "New York City, New York, United States", .city),
        ("New York, NY", "New York City, New York, United States", .city),
        ("São Paulo", "São Paulo, Brazil", .city),
        ("Wellington", "Wellington, Wellington Region, New Zealand", .city),
        ("Mexico City", "Mexico City, Mexico", .city),
        ("Islamabad", "Islamabad, Pakistan", .city),
        ("San Juan, PR", "San Juan, Puerto Rico", .city),
        ("CA", "Canada", .country),
        ("WA", "Washington, United States", .region),
        ("UK", "United Kingdom", .country),
        ("Perth, WA", "Perth, Western Australia, Australia", .city),
        ("Vancouver, Canada", "Vancouver, British Columbia, Canada", .city),
        ("St. Louis", "St. Louis, Missouri, United States", .city),
        ("Saint Louis, MO", "St. Louis, Missouri, United States", .city),
        ("Innere Stadt, Wien", "Innere Stadt, Vienna, Austria", .city),
        ("ha dong", "Hà Đông, Hanoi, Vietnam", .city),
        ("Manama", "Manama, Bahrain", .city),
        ("Seattle, WA ", "Seattle, Washington, United States", .city),
        ("1600 Amphitheatre Pkwy, Mountain View, CA 94043", "94043 Mountain View, California, United States", .postcode),
        ("Gladwyne, Lower Merion, PA, United States", "Pennsylvania, United States", .region),
        ("Seatle", "Seattle, Washington, United States", .city),
        ("Seatle, WA", "Seattle, Washington, United States", .city),
        ("San Fransisco", "San Francisco, California, United States", .city),
        ("Philadelpia", "Philadelphia, Pennsylvania, United States", .city),
        ("THessaloniiki,Greece", "Thessaloníki, Central Macedonia, Greece", .city),
        ("macca", "Makkah, Mecca Region, Saudi Arabia", .city),
        ("qassim", "Al-Qassim Region, Saudi Arabia", .region),
        ("ar riffa", "Ar Rifā‘, Southern Governorate, Bahrain", .city),
        ("Coimbra", "Coimbra, Portugal", .city),
    ])
    func answers(query: String, name: String, accuracy: GeoAccuracy) {
        let result = Shared.best(query)
        #expect(result?.name == name, "\(query)")
        #expect(result?.accuracy == accuracy, "\(query)")
    }

    @Test(arguments: ["", "   ", "asdf", "asdfg", "test2", "my house", "home", "hello", "Hello world", "jed", "15 Lawrence Road",
                      "25 Brown St", ",,,", "qwerty uiop", "Area51", "mapString", "n/a"])
    func junkGivesNoAnswer(query: String) {
        #expect(Shared.geocoder.geocode(query).isEmpty, "\(query) → \(String(describing: Shared.best(query)))")
    }

    @Test func rawCoordinatesAreTakenAsTheyAre() throws {
        let result = try #require(Shared.best("22.499749, 88.377048"))
        #expect(result.latitude == 22.499749 && result.longitude == 88.377048)
        #expect(result.accuracy == .address)
        #expect(Shared.geocoder.geocode("95.1, 10.2").isEmpty)
    }

    @Test func alternativesComeBestFirstAndDistinct() {
        let results = Shared.geocoder.geocode("Springfield", limit: 5)
        #expect(results.count == 5)
        #expect(Set(results.map(\.name)).count == 5)
        #expect(Shared.geocoder.geocode("Springfield", limit: 2).count == 2)
        #expect(Shared.geocoder.geocode("Springfield", limit: 0).isEmpty)
    }

    @Test func neverCrashesOnArbitraryText() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<10_000 {
            let scalars = (0..<Int.random(in: 0...40, using: &generator)).compactMap { _ -> Unicode.Scalar? in
                let value = Bool.random(using: &generator) ? UInt32.random(in: 0...0x7F, using: &generator) : UInt32.random(in: 0...0x10FFFF, using: &generator)
                return Unicode.Scalar(value)
            }
            let results = Shared.geocoder.geocode(String(String.UnicodeScalarView(scalars)), limit: 3)
            #expect(results.count <= 3)
        }
    }
}
