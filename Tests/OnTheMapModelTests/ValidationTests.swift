import OnTheMapModel
import Testing

@Suite struct ValidationTests {
    @Test(arguments: [
        ("https://udacity.com", "https://udacity.com"),
        ("http://example.com/path?q=1#frag", "http://example.com/path?q=1#frag"),
        ("HTTPS://Example.com", "https://Example.com"),
        ("www.example.com", "https://www.example.com"),
        ("  www.example.com/page  ", "https://www.example.com/page"),
        ("example.com:8080/x", "https://example.com:8080/x"),
        ("https://münchen.de/straße", "https://münchen.de/straße"),
        ("http://[::1]:8080/", "http://[::1]:8080/"),
        ("https://user@example.com", "https://user@example.com"),
        ("linkedin.com/in/someone", "https://linkedin.com/in/someone"),
    ])
    func acceptsWebLinks(input: String, stored: String) throws {
        #expect(try Validation.mediaURL(input) == stored)
    }

    @Test(arguments: [
        "", "   ", "javascript:alert(1)", "JavaScript:alert(1)", "data:text/html,hi", "file:///etc/passwd",
        "mailto:a@b.co", "ftp://example.com", "https://", "https:///path", "http://exa mple.com", "https://example.com/a b",
        "https://.example.com", "https://example..com", "https://example.com:99999", "https://example.com:port",
        "vbscript:msgbox", "https://exa<mple.com", "https://example.com\u{0}",
    ])
    func refusesEverythingElse(input: String) {
        #expect(throws: APIError.self) { try Validation.mediaURL(input) }
    }

    @Test func mediaURLLengthLimit() throws {
        let base = "https://e.com/"
        let exact = base + String(repeating: "a", count: 2048 - base.count)
        #expect(try Validation.mediaURL(exact) == exact)
        #expect(throws: APIError.self) { try Validation.mediaURL(exact + "a") }
    }

    @Test func mapStringIsCheckedTrimmedButKeptVerbatim() throws {
        #expect(try Validation.mapString("Seattle, WA   ") == "Seattle, WA   ")
        #expect(try Validation.mapString(" " + String(repeating: "x", count: 200) + " ").count == 202)
        #expect(throws: APIError.self) { try Validation.mapString(String(repeating: "x", count: 201)) }
        #expect(throws: APIError.self) { try Validation.mapString(" \n\t ") }
    }

    @Test func coordinates() throws {
        #expect(try Validation.latitude(-90) == -90)
        #expect(try Validation.longitude(180) == 180)
        for bad in [90.0001, -91, .nan, .infinity] { #expect(throws: APIError.self) { try Validation.latitude(bad) } }
        for bad in [180.0001, -181, .nan, -.infinity] { #expect(throws: APIError.self) { try Validation.longitude(bad) } }
    }

    @Test func names() throws {
        #expect(try Validation.personName("  Ada ", field: "firstName") == "Ada")
        #expect(try Validation.personName("Zoë 李", field: "firstName") == "Zoë 李")
        #expect(throws: APIError.self) { try Validation.personName("", field: "firstName") }
        #expect(throws: APIError.self) { try Validation.personName("A\u{1B}[31m", field: "firstName") }
        #expect(throws: APIError.self) { try Validation.personName(String(repeating: "n", count: 101), field: "firstName") }
        #expect(try Validation.personName(String(repeating: "n", count: 100), field: "firstName").count == 100)
    }

    @Test func emails() throws {
        #expect(try Validation.email(" Ada@Example.COM ") == "ada@example.com")
        for bad in ["", "ada", "@example.com", "ada@", "a@b@c", "ada @example.com", "ada@.com", "ada@example."] {
            #expect(throws: APIError.self, "\(bad)") { try Validation.email(bad) }
        }
    }

    @Test func locationFieldsParseTypesPrecisely() throws {
        let ok = try LocationFields.parse(.object(["mapString": .string("x"), "latitude": .number(1), "objectId": .string(""),
                                                    "createdAt": .string("whenever"), "extra": .array([])]))
        #expect(ok.mapString == "x" && ok.latitude == 1 && ok.mediaURL == nil)
        #expect(throws: APIError.incorrectType("latitude", expected: "a number")) {
            try LocationFields.parse(.object(["latitude": .string("1")]))
        }
        #expect(throws: APIError.self) { try LocationFields.parse(.array([])) }
        #expect(throws: APIError.self) { try LocationFields.parse(.object(["mapString": .string("x")])).requireComplete() }
    }
}
