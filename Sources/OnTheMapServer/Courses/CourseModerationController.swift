import OnTheMapStore

/// A course's moderation by its instructors, under its path (`/v1/course/…`): its reported pins,
/// hiding and showing its pins, dismissing their reports, its part of the audit log and its map
/// as a file, and approving the pins that wait for it. The admin area's own handlers (`PinModeration`), scoped to the course: a pin of
/// another course is not there. Who may is `CourseAccess`'s ("teach"), checked by the route group.
struct CourseModerationController: Sendable {
    let service: AdminService
    let locations: any LocationStore

    func addRoutes(to routes: FamilyGroup) {
        let pins = PinModeration(service: service, locations: locations, scopedToCourse: true)
        routes.add(.courseReports, pins.reports)
        routes.add(.courseApprovals, pins.awaitingApproval)
        routes.add(.courseChangeLocation, pins.changeLocation)
        routes.add(.courseDismissReports, pins.dismissReports)
        routes.add(.courseAudit, pins.audit)
        routes.add(.courseExport, pins.export)
    }
}
