import OnTheMapModel

/// Whether a pin written in a course waits for an instructor's approval before others see it: in
/// a course that asks for it (never the default course, whose old apps' pins show at once), a
/// student's does; an instructor's or a server admin's shows at once. The student sees theirs, marked
/// waiting (`/v1/me`); the store holds it (`LocationStore.saveLocation(…heldForApproval:)`).
enum ApprovalRule {
    static func holds(in course: Course?, caller: Caller?) -> Bool {
        guard let course, course.approvalRequired, course.id != .default else { return false }
        guard let caller else { return true }
        return !(caller.account.isAdmin || caller.courseRole == .instructor)
    }
}
