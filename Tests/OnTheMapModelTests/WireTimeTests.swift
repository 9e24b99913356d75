import Foundation
import OnTheMapModel
import Testing

@Suite struct WireTimeTests {
    @Test(arguments: [
        (Int64(0), "1970-01-01T00:00:00.000Z"),
        (1_558_472_355_162, "2019-05-21T20:59:15.162Z"),
        (951_782_400_000, "2000-02-29T00:00:00.000Z"),
        (-1, "1969-12-31T23:59:59.999Z"),
        (253_402_300_799_999, "9999-12-31T23:59:59.999Z"),
    ])
    func formatsMillisecondsWithExactlyThreeDigits(millis: Int64, expected: String) {
        #expect(WireTime.formatMillis(millis) == expected)
    }

    @Test func formatsMicrosecondsWithExactlySixDigits() {
        #expect(WireTime.formatMicros(1_796_575_710_760_460) == "2026-12-06T16:48:30.760460Z")
        #expect(WireTime.formatMicros(5) == "1970-01-01T00:00:00.000005Z")
    }

    @Test func agreesWithFoundationsFormatter() {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ss.SSS'Z'"
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            let millis = Int64.random(in: 0...4_102_444_800_000, using: &generator)
            let text = WireTime.formatMillis(millis)
            #expect(formatter.string(from: Date(timeIntervalSince1970: Double(millis) / 1000)) == text)
            #expect(WireTime.parseMillis(text) == millis)
        }
    }

    @Test(arguments: [
        ("2019-05-21T20:59:15.162Z", Int64(1_558_472_355_162)),
        ("2019-05-21T20:59:15Z", 1_558_472_355_000),
        ("2019-05-21T20:59:15.1Z", 1_558_472_355_100),
        ("2019-05-21T20:59:15.162999Z", 1_558_472_355_162),
        ("2019-05-21T22:59:15.162+02:00", 1_558_472_355_162),
        ("2019-05-21T15:59:15.162-0500", 1_558_472_355_162),
        ("2019-05-21", 1_558_396_800_000),
        ("2019-05-21T20:59", 1_558_472_340_000),
    ])
    func parsesISOVariants(text: String, millis: Int64) {
        #expect(WireTime.parseMillis(text) == millis)
    }

    @Test(arguments: ["", "yesterday", "2019-13-01", "2019-02-30", "2019-05-21T25:00:00Z", "2019-05-21T20:59:15.Z", "2019-05-21T20:59:15Zjunk", "21/05/2019"])
    func rejectsMalformedTimestamps(text: String) {
        #expect(WireTime.parseMillis(text) == nil)
    }
}

@Suite struct IdentifierTests {
    @Test func objectIdsAreTenAlphanumerics() {
        let ids = (0..<1000).map { _ in Identifiers.objectId() }
        #expect(ids.allSatisfy { $0.wholeMatch(of: /[A-Za-z0-9]{10}/) != nil })
        #expect(Set(ids).count == ids.count)
    }

    @Test func accountKeysAreTenDigitsWithoutLeadingZero() {
        for _ in 0..<1000 {
            let key = Identifiers.accountKey()
            #expect(key.wholeMatch(of: /[1-9][0-9]{9}/) != nil)
        }
    }

    @Test func tokensCarry256Bits() {
        let token = Identifiers.token()
        #expect(token.wholeMatch(of: /[0-9a-f]{64}/) != nil)
        #expect(Identifiers.token() != token)
    }
}
