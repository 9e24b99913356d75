/// A course's number in the database: every pin, report, audit entry and live event belongs to
/// one. The default course (`/`, slug `default`) holds everything from before courses.
public struct CourseID: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: Int64

    public init(rawValue: Int64) { self.rawValue = rawValue }

    /// The first course, made by the migration that brought courses: today's paths serve it.
    public static let `default` = CourseID(rawValue: 1)

    public var description: String { "course \(rawValue)" }
}
