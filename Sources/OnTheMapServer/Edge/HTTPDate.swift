#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The `Date` header's value (RFC 9110 IMF-fixdate, "Tue, 24 Nov 2026 00:52:22 GMT") for answers the
/// edge makes itself, formatted at most once per second by each connection.
struct HTTPDate {
    private var last = (second: time_t(-1), text: "")
    private static let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    mutating func now() -> String {
        var seconds = time(nil)
        if last.second != seconds {
            var parts = tm()
            gmtime_r(&seconds, &parts)
            last = (seconds, Self.format(parts))
        }
        return last.text
    }

    static func format(_ parts: tm) -> String {
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(days[Int(parts.tm_wday)]), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon)]) \(parts.tm_year + 1900) "
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
    }
}
