/// What one committed write did to the student locations. Changes are numbered in the order their
/// transactions committed, so a listener that sees them in order ends with what the database holds.
public struct LocationChange: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        case created(StudentLocation, in: CourseID)
        case updated(StudentLocation, in: CourseID)
        case deleted(objectId: String, in: CourseID)
        /// Another process (the CLI, a second server) changed the database; which rows is not known.
        case unknown
        /// Another server changed this course's pins, which its log says; or they all went at
        /// once with their course.
        case elsewhere(in: CourseID)
        /// The data was rewritten under the event log (a restore, a copy with `--replace`, an
        /// import): the log starts a new epoch, and every reader of it reloads.
        case rewritten
        /// The channel that carries other instances' changes was lost (the database restarting or
        /// unreachable): changes may go unheard until it is back, so live streams are ended with
        /// `reconnect` and resume from the log once the database answers again.
        case interrupted

        /// The course whose pin changed; nil for news that concerns every course.
        public var course: CourseID? {
            switch self {
            case .created(_, let course), .updated(_, let course), .deleted(_, let course), .elsewhere(let course): course
            case .unknown, .rewritten, .interrupted: nil
            }
        }
    }

    /// 1 for the first change this process announced, then one more for each.
    public let sequence: UInt64
    public let kind: Kind

    public init(sequence: UInt64, kind: Kind) {
        self.sequence = sequence
        self.kind = kind
    }
}
