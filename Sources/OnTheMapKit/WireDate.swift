internal import Foundation
internal import OpenAPIRuntime

/// The server's dates: ISO 8601 in UTC with milliseconds, `2019-05-21T20:59:15.162Z`, the exact
/// form the original service sent. A list of 100 pins has 200 of them, so the usual form is read
/// by hand (a formatter costs microseconds each); anything else goes to `ISO8601DateFormatter`.
enum WireDate {
    static func parse(_ text: String) -> Date? {
        fastParse(text) ?? slowParse(text)
    }

    static func format(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }

    /// `yyyy-MM-ddTHH:mm:ss.SSSZ`, and the same without the fraction.
    private static func fastParse(_ text: String) -> Date? {
        var text = text
        return text.withUTF8 { fastParse(bytes: $0) }
    }

    private static func fastParse(bytes: UnsafeBufferPointer<UInt8>) -> Date? {
        guard bytes.count == 24 || bytes.count == 20, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
              bytes[10] == UInt8(ascii: "T"), bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"),
              bytes[bytes.count - 1] == UInt8(ascii: "Z")
        else { return nil }
        func number(_ from: Int, _ count: Int) -> Int? {
            var value = 0
            for index in from..<(from + count) {
                let digit = Int(bytes[index]) - 48
                guard (0...9).contains(digit) else { return nil }
                value = value * 10 + digit
            }
            return value
        }
        guard let year = number(0, 4), let month = number(5, 2), let day = number(8, 2),
              let hour = number(11, 2), let minute = number(14, 2), let second = number(17, 2),
              (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61
        else { return nil }
        var milliseconds = 0
        if bytes.count == 24 {
            guard bytes[19] == UInt8(ascii: "."), let fraction = number(20, 3) else { return nil }
            milliseconds = fraction
        }
        let days = daysFromCivil(year: year, month: month, day: day)
        let seconds = Double(days * 86_400 + hour * 3_600 + minute * 60 + second)
        return Date(timeIntervalSince1970: seconds + Double(milliseconds) / 1_000)
    }

    /// Days since 1970-01-01 in the proleptic Gregorian calendar (Howard Hinnant's algorithm).
    private static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    private static func slowParse(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.date(from: text)
    }
}

/// The generated code's `date-time` fields (a course's `createdAt`) read as the server writes them:
/// OpenAPIRuntime's default transcoder reads no fraction of a second, and the server always sends one.
struct WireDateTranscoder: DateTranscoder {
    func encode(_ date: Date) throws -> String { WireDate.format(date) }

    func decode(_ text: String) throws -> Date {
        guard let date = WireDate.parse(text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "\(text) is not a date"))
        }
        return date
    }
}
