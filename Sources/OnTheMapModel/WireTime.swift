/// Wire timestamps: ISO-8601 in UTC with a fixed number of fractional digits.
///
/// Locations use milliseconds (`2019-05-21T20:59:15.162Z`), session expirations microseconds
/// (`2026-12-06T16:48:30.760460Z`). The conversion is done by hand, with exact integer arithmetic,
/// because the digits must be exact and formatting sits on the list's hot path.
public enum WireTime {
    /// Milliseconds since the epoch formatted as `yyyy-MM-dd'T'HH:mm:ss.SSS'Z'`.
    public static func formatMillis(_ millis: Int64) -> String {
        format(seconds: floorDiv(millis, 1000), fraction: floorMod(millis, 1000), digits: 3)
    }

    /// Microseconds since the epoch formatted as `yyyy-MM-dd'T'HH:mm:ss.SSSSSS'Z'`.
    public static func formatMicros(_ micros: Int64) -> String {
        format(seconds: floorDiv(micros, 1_000_000), fraction: floorMod(micros, 1_000_000), digits: 6)
    }

    /// Parses an ISO-8601 timestamp (`2019-05-21T20:59:15.162Z`, with or without a fraction, with `Z`
    /// or a `±hh:mm` offset, or a bare date) into milliseconds since the epoch; nil when malformed.
    public static func parseMillis(_ text: String) -> Int64? {
        var scanner = DigitScanner(Array(text.utf8))
        guard let year = scanner.number(digits: 4), scanner.take("-"),
              let month = scanner.number(digits: 2), scanner.take("-"),
              let day = scanner.number(digits: 2),
              (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day)
        else { return nil }
        var millis = days(year: year, month: month, day: day) * 86_400_000
        if scanner.atEnd { return millis }
        guard scanner.take("T") || scanner.take(" "),
              let hour = scanner.number(digits: 2), scanner.take(":"),
              let minute = scanner.number(digits: 2), hour < 24, minute < 60
        else { return nil }
        var second: Int64 = 0
        if scanner.take(":") {
            guard let s = scanner.number(digits: 2), s < 61 else { return nil }
            second = s
        }
        millis += (hour * 3600 + minute * 60 + second) * 1000
        if scanner.take(".") {
            guard let fraction = scanner.fractionMillis() else { return nil }
            millis += fraction
        }
        if scanner.take("Z") || scanner.atEnd {
            return scanner.atEnd ? millis : nil
        }
        let sign: Int64 = scanner.take("+") ? 1 : (scanner.take("-") ? -1 : 0)
        guard sign != 0, let offsetHours = scanner.number(digits: 2) else { return nil }
        _ = scanner.take(":")
        guard let offsetMinutes = scanner.number(digits: 2), scanner.atEnd,
              offsetHours < 24, offsetMinutes < 60 else { return nil }
        return millis - sign * (offsetHours * 60 + offsetMinutes) * 60_000
    }

    /// A complete timestamp with its zone, as a file carries one (`2019-05-21T20:59:15.162Z`, or
    /// with a `±hh:mm` offset; seconds required, a fraction optional): an import refuses the
    /// shorter forms `parseMillis` takes, since a file cut inside a date reads as an earlier date,
    /// and a date without a zone is not a moment.
    public static func parseZonedMillis(_ text: String) -> Int64? {
        guard text.wholeMatch(of: /[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]{1,9})?(Z|[+-][0-9]{2}:[0-9]{2})/) != nil else {
            return nil
        }
        return parseMillis(text)
    }

    /// Milliseconds since the epoch, formatted as by `formatMillis`, appended as UTF-8 (the list
    /// encoder's path: no String per timestamp).
    public static func appendMillis(_ millis: Int64, to out: inout [UInt8]) {
        append(seconds: floorDiv(millis, 1000), fraction: floorMod(millis, 1000), digits: 3, to: &out)
    }

    private static func format(seconds: Int64, fraction: Int64, digits: Int) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(27)
        append(seconds: seconds, fraction: fraction, digits: digits, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    private static func append(seconds: Int64, fraction: Int64, digits: Int, to out: inout [UInt8]) {
        let (year, month, day) = civil(days: floorDiv(seconds, 86_400))
        let secondOfDay = floorMod(seconds, 86_400)
        pad(year, 4, to: &out)
        out.append(UInt8(ascii: "-"))
        pad(month, 2, to: &out)
        out.append(UInt8(ascii: "-"))
        pad(day, 2, to: &out)
        out.append(UInt8(ascii: "T"))
        pad(secondOfDay / 3600, 2, to: &out)
        out.append(UInt8(ascii: ":"))
        pad(secondOfDay / 60 % 60, 2, to: &out)
        out.append(UInt8(ascii: ":"))
        pad(secondOfDay % 60, 2, to: &out)
        out.append(UInt8(ascii: "."))
        pad(fraction, digits, to: &out)
        out.append(UInt8(ascii: "Z"))
    }

    /// `value` in decimal, zero-padded on the left to `width` digits (longer or negative values as
    /// they are, the sign first).
    private static func pad(_ value: Int64, _ width: Int, to out: inout [UInt8]) {
        var limit: Int64 = 1
        for _ in 0..<width { limit *= 10 }
        guard value >= 0, value < limit else {
            let digits = String(value)
            out.append(contentsOf: (digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits).utf8)
            return
        }
        var divisor = limit / 10
        while divisor > 0 {
            out.append(UInt8(ascii: "0") + UInt8(value / divisor % 10))
            divisor /= 10
        }
    }

    /// Days since the epoch to a proleptic Gregorian date (H. Hinnant's civil-from-days algorithm).
    static func civil(days: Int64) -> (Int64, Int64, Int64) {
        let z = days + 719_468
        let era = floorDiv(z, 146_097)
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// A proleptic Gregorian date to days since the epoch (the inverse of `civil`).
    static func days(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = floorDiv(y, 400)
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    private static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    private static func floorDiv(_ a: Int64, _ b: Int64) -> Int64 { a >= 0 ? a / b : (a - b + 1) / b }
    private static func floorMod(_ a: Int64, _ b: Int64) -> Int64 { a - floorDiv(a, b) * b }
}

/// A cursor over ASCII bytes for the timestamp parser.
private struct DigitScanner {
    let bytes: [UInt8]
    var index = 0
    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var atEnd: Bool { index == bytes.count }

    /// Consumes `character` if it is next.
    mutating func take(_ character: Unicode.Scalar) -> Bool {
        guard index < bytes.count, bytes[index] == UInt8(character.value) else { return false }
        index += 1
        return true
    }

    /// Reads exactly `digits` decimal digits.
    mutating func number(digits: Int) -> Int64? {
        guard index + digits <= bytes.count else { return nil }
        var value: Int64 = 0
        for byte in bytes[index..<index + digits] {
            guard (48...57).contains(byte) else { return nil }
            value = value * 10 + Int64(byte - 48)
        }
        index += digits
        return value
    }

    /// Reads one or more fractional digits, keeping the first three as milliseconds.
    mutating func fractionMillis() -> Int64? {
        var millis: Int64 = 0
        var count = 0
        while index < bytes.count, (48...57).contains(bytes[index]) {
            if count < 3 { millis = millis * 10 + Int64(bytes[index] - 48) }
            count += 1
            index += 1
        }
        guard count > 0 else { return nil }
        for _ in count..<max(count, 3) { millis *= 10 }
        return millis
    }
}
