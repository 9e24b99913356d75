import Foundation
import OnTheMapKit

/// What the commands print: a line of text each, or with --json one JSON object per line (dates in
/// ISO 8601, keys sorted), which scripts can read with jq.
struct Output {
    let json: Bool

    func line(_ text: String, json object: [String: Any]) {
        if json { print(Self.encode(object)) } else { print(text) }
    }

    func error(_ error: OnTheMapError) {
        var object: [String: Any] = ["kind": error.kind.rawValue, "message": error.message]
        object["status"] = error.status
        object["code"] = error.code
        object["parameter"] = error.parameter
        object["retryAfterSeconds"] = error.retryAfter.map { $0.components.seconds }
        let text = json ? Self.encode(["error": object]) : "error: \(error.message)\(error.parameter.map { " (\($0))" } ?? "")"
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    func session(_ session: Session, email: String) {
        line("Logged in as \(email) (account \(session.accountKey)).",
             json: ["accountKey": session.accountKey, "email": email, "expiration": session.expiration.map(Self.date) as Any])
    }

    func me(_ me: OnTheMapKit.Me) {
        let state = me.locationAwaitingApproval ? ", waiting for an instructor's approval" : me.locationHidden ? ", hidden by a moderator" : ""
        let pin = me.location.map { "\($0.mapString) (\($0.objectId))\(state)" } ?? "no pin yet"
        line("\(me.account.firstName) \(me.account.lastName) <\(me.account.email)>: \(pin)", json: [
            "account": ["key": me.account.key, "email": me.account.email, "firstName": me.account.firstName,
                        "lastName": me.account.lastName, "isAdmin": me.account.isAdmin],
            "location": me.location.map(Self.object) ?? NSNull(), "locationHidden": me.locationHidden,
            "locationAwaitingApproval": me.locationAwaitingApproval,
        ])
    }

    func page(_ page: LocationPage) {
        for location in page.locations {
            line("\(Self.date(location.updatedAt))  \(location.firstName) \(location.lastName) — \(location.mapString) — \(location.mediaURL)",
                 json: Self.object(location))
        }
        if let count = page.count { line("\(count) in all", json: ["count": count]) }
    }

    func posted(_ posted: PostedLocation, _ location: NewLocation) {
        line("Posted \(posted.objectId) at \(location.latitude), \(location.longitude).", json: [
            "objectId": posted.objectId, "createdAt": Self.date(posted.createdAt), "latitude": location.latitude, "longitude": location.longitude,
        ])
    }

    func geocoded(_ answer: GeocodeAnswer) {
        if answer.places.isEmpty { line("No place found.", json: ["places": [Any]()]) }
        for place in answer.places {
            line("\(place.name) (\(place.countryCode), \(place.accuracy.rawValue)) \(place.latitude), \(place.longitude)", json: [
                "name": place.name, "countryCode": place.countryCode, "accuracy": place.accuracy.rawValue,
                "latitude": place.latitude, "longitude": place.longitude, "confidence": answer.confidence.rawValue, "doubts": answer.doubts,
            ])
        }
    }

    func update(_ update: LiveUpdate) {
        switch update {
        case .ready(let id): line("ready (event \(id))", json: ["event": "ready", "lastEventId": id])
        case .created(let location): line("created \(location.objectId): \(location.firstName) \(location.lastName) — \(location.mapString)",
                                          json: ["event": "created", "location": Self.object(location)])
        case .updated(let location): line("updated \(location.objectId): \(location.firstName) \(location.lastName) — \(location.mapString)",
                                          json: ["event": "updated", "location": Self.object(location)])
        case .deleted(let id): line("deleted \(id)", json: ["event": "deleted", "objectId": id])
        case .reload(let reason): line("reload: \(reason)", json: ["event": "reload", "reason": reason])
        }
        fflush(nil)  // every stream: a watcher piped into another program sees each line at once
    }

    func course(_ course: Course) {
        let role = course.role.map { "you are \($0 == .instructor ? "an instructor" : "a student")" } ?? "you are not a member"
        let invite = course.invite.map { "; invite link (\($0.isEnabled ? "on" : "off")): \($0.link.absoluteString)" } ?? ""
        line("\(course.slug) — \(course.title) — \(role)\(course.isArchived ? ", archived" : "")\(invite)", json: Self.object(course))
    }

    func joined(_ join: CourseJoin) {
        switch join {
        case .joined(let course): line("Joined \(course.slug) — \(course.title) as a student.", json: ["joined": true, "course": Self.object(course)])
        case .alreadyMember(let course): line("Already a member of \(course.slug) — \(course.title).", json: ["joined": false, "course": Self.object(course)])
        }
    }

    static func object(_ course: Course) -> [String: Any] {
        ["slug": course.slug, "title": course.title, "visibility": course.visibility.rawValue, "namesShown": course.namesShown.rawValue,
         "approvalRequired": course.approvalRequired, "archived": course.isArchived, "createdAt": date(course.createdAt),
         "role": course.role?.rawValue ?? NSNull(),
         "invite": course.invite.map { ["enabled": $0.isEnabled, "url": $0.link.absoluteString] as [String: Any] } ?? NSNull()]
    }

    static func object(_ location: StudentLocation) -> [String: Any] {
        ["objectId": location.objectId, "uniqueKey": location.uniqueKey, "firstName": location.firstName, "lastName": location.lastName,
         "mapString": location.mapString, "mediaURL": location.mediaURL, "latitude": location.latitude, "longitude": location.longitude,
         "createdAt": date(location.createdAt), "updatedAt": date(location.updatedAt)]
    }

    static func date(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }

    static func encode(_ object: [String: Any]) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}

/// The password, from the environment, standard input, or asked for without echo.
enum Password {
    static func read(fromStandardInput: Bool) throws -> String {
        if fromStandardInput {
            guard let line = readLine(strippingNewline: true), !line.isEmpty else {
                throw OnTheMapError(kind: .invalid, message: "No password on standard input.", parameter: "password")
            }
            return line
        }
        if let password = ProcessInfo.processInfo.environment["ONTHEMAP_PASSWORD"], !password.isEmpty { return password }
        guard let typed = getpass("Password: ").map({ String(cString: $0) }), !typed.isEmpty else {
            throw OnTheMapError(kind: .invalid, message: "No password given (ONTHEMAP_PASSWORD, --password-stdin, or type it).", parameter: "password")
        }
        return typed
    }
}
