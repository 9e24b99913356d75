import OnTheMapModel
import SQLKit

extension SQLStore: LocationStore {
    /// The columns every location read selects, in this order: positions and names in one place.
    enum LocationColumn: Int, CaseIterable {
        case objectId, ownerKey, uniqueKey, firstName, lastName, mapString, mediaURL, latitude, longitude, createdAt, updatedAt

        /// The model field it stores (the case names are `LocationField`'s); the owner is the store's own.
        var field: LocationField? { LocationField(rawValue: "\(self)") }
        var name: String { field?.columnName ?? "owner_key" }
    }

    static let locationColumnNames = LocationColumn.allCases.map(\.name)
    static let locationColumns = locationColumnNames.joined(separator: ", ")
    /// For reads that must know whether a pin is hidden (the public lists leave hidden ones out
    /// instead), its course (the lists ask for one) and whether it waits for approval.
    static let locationColumnsAndHidden = locationColumns + ", hidden_at, course_id, awaiting_approval"
    /// Only pins an admin has not hidden: every public read has it.
    static let visible = SQLRaw("hidden_at IS NULL")

    /// Whether location writes record their events in their own statement (`LocationWriteSQL`).
    var writesEventsInStatements: Bool { flavour.writesEventsInStatements }

    public func locations(_ query: LocationQuery, in course: CourseID) async throws -> LocationPage {
        let page = query.limit == 0 ? [] : try await Self.locations(listQuery(query, in: course), on: reader)
        var count: Int?
        if query.includeCount, query.filter == .all {
            count = try await reader.raw("SELECT visible_pins FROM course_pin_counts WHERE course_id = \(bind: course.rawValue)")
                .first()?.decode(column: "visible_pins", as: Int.self) ?? 0
        } else if query.includeCount {
            count = try await reader.select().column(SQLRaw("COUNT(*) AS total")).from("student_locations").where(listCondition(query, in: course))
                .first()?.decode(column: "total", as: Int.self) ?? 0
        }
        return LocationPage(results: page, count: count)
    }

    /// The page `query` asks for in `course`: `locationColumns`, in the query's order.
    func listQuery(_ query: LocationQuery, in course: CourseID) -> any SQLExpression {
        var select = reader.select().column(SQLRaw(Self.locationColumns)).from("student_locations").where(listCondition(query, in: course))
        for key in query.effectiveOrder {
            select = select.orderBy(SQLColumn(key.field.columnName), key.descending ? SQLDirection.descending : .ascending)
        }
        return select.limit(query.limit).offset(query.skip).query
    }

    /// The pins `query` selects in `course`, visible ones only.
    private func listCondition(_ query: LocationQuery, in course: CourseID) -> any SQLExpression {
        SQLBinaryExpression(SQLBinaryExpression(Self.inCourse(course, for: query.filter), .and, query.filter.sqlExpression), .and, Self.visible)
    }

    /// The condition that a pin is in `course`, for a list with `filter`. A filter that names its
    /// pins (by uniqueKey or objectId) is answered from that key's index, the course checked on the
    /// few rows found: written `+course_id`, the course is no index key to the planner, which
    /// otherwise (SQLite, without statistics) walks the whole course in order instead.
    static func inCourse(_ course: CourseID, for filter: LocationFilter) -> any SQLExpression {
        SQLRaw(filter.namesFewRows ? "+course_id = " : "course_id = ") + SQLBind(course.rawValue)
    }

    public func location(objectId: String) async throws -> OwnedLocation? {
        guard objectId.isStorable else { return nil }
        return try await reader.raw("SELECT \(unsafeRaw: Self.locationColumnsAndHidden) FROM student_locations WHERE object_id = \(bind: objectId)")
            .first().map(Self.owned(from:))
    }

    public func location(ownerKey: String, in course: CourseID) async throws -> OwnedLocation? {
        guard ownerKey.isStorable else { return nil }
        return try await reader.raw("""
            SELECT \(unsafeRaw: Self.locationColumnsAndHidden) FROM student_locations
            WHERE course_id = \(bind: course.rawValue) AND owner_key = \(bind: ownerKey)
            """).first().map(Self.owned(from:))
    }

    /// Up to `limit` locations in object id order, from after `objectId`: every location, a page at
    /// a time (an export), whatever the table's size.
    public func locations(in course: CourseID, after objectId: String?, limit: Int) async throws -> [StudentLocation] {
        try await Self.locations(SQLQueryString("""
            SELECT \(unsafeRaw: Self.locationColumns) FROM student_locations
            WHERE course_id = \(bind: course.rawValue) AND object_id > \(bind: objectId ?? "") AND hidden_at IS NULL
            ORDER BY object_id LIMIT \(bind: limit)
            """), on: reader)
    }

    public func saveLocation(
        _ fields: CompleteLocationFields, ownerKey: String?, in course: CourseID, now: Int64, heldForApproval held: Bool
    ) async throws -> StudentLocation {
        for attempt in 1...3 {
            let objectId = Identifiers.objectId()
            do {
                // One statement, so an overwrite can never leave two pins for one account.
                let upsert = SQLQueryString("""
                    INSERT INTO student_locations (\(unsafeRaw: Self.locationColumns), course_id\(unsafeRaw: held ? ", hidden_at, awaiting_approval" : ""))
                    VALUES (\(bind: objectId), \(bind: ownerKey), \(bind: fields.uniqueKey), \(bind: fields.firstName),
                            \(bind: fields.lastName), \(bind: fields.mapString), \(bind: fields.mediaURL),
                            \(bind: fields.latitude), \(bind: fields.longitude), \(bind: now), \(bind: now), \(bind: course.rawValue)\(held ? ApprovalHold.newPin(at: now) : SQLQueryString("")))
                    ON CONFLICT (course_id, owner_key) DO UPDATE SET
                        unique_key = excluded.unique_key, first_name = excluded.first_name,
                        last_name = excluded.last_name, map_string = excluded.map_string,
                        media_url = excluded.media_url, latitude = excluded.latitude,
                        longitude = excluded.longitude, updated_at = excluded.updated_at\(held ? ApprovalHold.assignments(at: now) : SQLQueryString(""))
                    RETURNING \(unsafeRaw: Self.locationColumnsAndHidden)
                    """)
                if held, let ownerKey {
                    return try await writer.perform(heldWrite(upsert, before: ApprovalHold.pinBefore(owner: ownerKey, in: course), in: course) { owned, _ in
                        guard let owned else { throw StoreError.keyTaken }
                        return owned.location
                    })
                }
                let recordsItsEvents = writesEventsInStatements
                let statement = recordsItsEvents
                    ? LocationWriteSQL.saving(upsert, newObjectId: objectId, as: StudentLocation(
                        objectId: objectId, uniqueKey: fields.uniqueKey, firstName: fields.firstName, lastName: fields.lastName,
                        mapString: fields.mapString, mediaURL: fields.mediaURL, latitude: fields.latitude, longitude: fields.longitude,
                        createdAt: now, updatedAt: now), at: now)
                    : upsert
                return try await writer.perform(WriteUnit([statement], recordsItsEvents: recordsItsEvents) { rows in
                    guard let row = rows[0].first else { throw StoreError.keyTaken }
                    let owned = try Self.owned(from: row)
                    let saved = owned.location
                    if owned.isHidden { return (saved, []) }
                    // The objectId drawn here comes back only when the row is new; an overwrite keeps its own.
                    return (saved, [saved.objectId == objectId ? .created(saved, in: course) : .updated(saved, in: course)])
                })
            } catch {
                // A clash of random objectIds (62^10 of them) is retried; anything else is real.
                guard attempt < 3, try await location(objectId: objectId) != nil else { throw error }
            }
        }
        throw StoreError.keyTaken
    }

    public func updateLocation(
        objectId: String, in course: CourseID, with fields: LocationFields, now: Int64, heldForApproval held: Bool, by right: LocationWriteRight
    ) async throws -> LocationWriteOutcome<StudentLocation> {
        guard objectId.isStorable else { return .notFound }
        var assignments: [any SQLExpression] = [SQLRaw("updated_at = ") + SQLBind(now)]
        func set(_ column: String, _ value: (any Encodable & Sendable)?) {
            if let value { assignments.append(SQLRaw("\(column) = ") + SQLBind(value)) }
        }
        /// An owned pin always shows its owner: the body's identity fields reach only a pin without one.
        func setUnlessOwned(_ column: String, _ value: String?) {
            if let value { assignments.append(SQLQueryString("\(unsafeRaw: column) = CASE WHEN owner_key IS NULL THEN \(bind: value) ELSE \(unsafeRaw: column) END")) }
        }
        setUnlessOwned("unique_key", fields.uniqueKey)
        setUnlessOwned("first_name", fields.firstName)
        setUnlessOwned("last_name", fields.lastName)
        set("map_string", fields.mapString)
        set("media_url", fields.mediaURL)
        set("latitude", fields.latitude)
        set("longitude", fields.longitude)
        let update = SQLList([
            SQLRaw("UPDATE student_locations SET "), SQLList(assignments), held ? ApprovalHold.assignments(at: now) : SQLQueryString(""),
            SQLRaw(" WHERE object_id = "), SQLBind(objectId), SQLRaw(" AND course_id = "), SQLBind(course.rawValue),
            SQLRaw(" AND "), right.condition, SQLRaw(" RETURNING \(Self.locationColumnsAndHidden)"),
        ], separator: SQLRaw(""))
        if held {
            return try await writer.perform(heldWrite(update, before: ApprovalHold.pinBefore(objectId: objectId, in: course, by: right), in: course) { owned, before in
                try Self.outcome(before: before, written: owned) { ($0.location, $0.ownerKey) }
            })
        }
        let target = Self.checking(objectId, in: course, by: right)
        // An update that sets the coordinates (as every app's PUT does) knows the pin's JSON but
        // for what the row keeps, which the database writes in: on PostgreSQL it records its event
        // and checks the right in one statement.
        if writesEventsInStatements, let latitude = fields.latitude, let longitude = fields.longitude {
            let statement = LocationWriteSQL.updating(update, latitude: latitude, longitude: longitude, at: now, checked: target)
            return try await writer.perform(WriteUnit([statement], recordsItsEvents: true) { rows in
                let row = rows[0].first
                let owned = try row.flatMap { try $0.decodeNil(column: "object_id") ? nil : try Self.owned(from: $0) }
                return (try Self.outcome(checked: row, written: owned) { ($0.location, $0.ownerKey) }, Self.updated(owned, in: course))
            })
        }
        return try await writer.perform(WriteUnit([target, update]) { rows in
            let owned = try rows[1].first.map(Self.owned(from:))
            return (try Self.outcome(before: rows[0].first, written: owned) { ($0.location, $0.ownerKey) }, Self.updated(owned, in: course))
        })
    }

    public func deleteLocation(objectId: String, in course: CourseID, by right: LocationWriteRight) async throws -> LocationWriteOutcome<Void> {
        guard objectId.isStorable else { return .notFound }
        let delete = SQLQueryString("""
            DELETE FROM student_locations WHERE object_id = \(bind: objectId) AND course_id = \(bind: course.rawValue) AND \(right.condition)
            RETURNING object_id, course_id, owner_key
            """)
        let target = Self.checking(objectId, in: course, by: right)
        /// The owner of the pin the row says was deleted (`.some(nil)`: a pin without one); nil when none was.
        let deleted: @Sendable ((any SQLRow)?) throws -> String?? = { row in
            guard let row, try !row.decodeNil(column: "object_id") else { return nil }
            return .some(try row.optionalString(column: "owner_key"))
        }
        if writesEventsInStatements {
            let statement = LocationWriteSQL.deleting(delete, at: WallClock.system.nowMillis(), checked: target)
            return try await writer.perform(WriteUnit([statement], recordsItsEvents: true) { rows in
                let row = rows[0].first
                let gone = try deleted(row)
                return (try Self.outcome(checked: row, written: gone) { ((), $0) }, gone == nil ? [] : [.deleted(objectId: objectId, in: course)])
            })
        }
        return try await writer.perform(WriteUnit([target, delete]) { rows in
            let gone = try deleted(rows[1].first)
            return (try Self.outcome(before: rows[0].first, written: gone) { ((), $0) }, gone == nil ? [] : [.deleted(objectId: objectId, in: course)])
        })
    }

    /// The pin a checked write aims at, as one row of `found` (always TRUE: no row, no pin) and
    /// `permitted` (whether `right` reaches it), read in the write's own transaction or statement.
    static func checking(_ objectId: String, in course: CourseID, by right: LocationWriteRight) -> SQLQueryString {
        """
        SELECT TRUE AS found, COALESCE(\(right.condition), FALSE) AS permitted FROM student_locations
        WHERE object_id = \(bind: objectId) AND course_id = \(bind: course.rawValue)
        """
    }

    /// What a checked write came to, from the row of `checking` read before it (nil: no pin) and
    /// what it wrote (nil: nothing).
    static func outcome<Written, Value>(
        before: (any SQLRow)?, written: Written?, _ value: (Written) -> (Value, String?)
    ) throws -> LocationWriteOutcome<Value> {
        if let written {
            let (value, ownerKey) = value(written)
            return .written(value, ownerKey: ownerKey)
        }
        guard let before else { return .notFound }
        // A pin the writer may change but that the write did not find was deleted meanwhile.
        return try before.decode(column: "permitted", as: Bool.self) ? .notFound : .refused
    }

    /// `outcome(before:written:)` from the one row of a statement checked in itself
    /// (`LocationWriteSQL.recording`), whose `found` and `permitted` follow what it wrote.
    static func outcome<Written, Value>(
        checked row: (any SQLRow)?, written: Written?, _ value: (Written) -> (Value, String?)
    ) throws -> LocationWriteOutcome<Value> {
        let found = try row.map { try $0.decode(column: "found", as: Bool.self) } ?? false
        return try outcome(before: found ? row : nil, written: written, value)
    }

    /// The change an update announces: none for a pin it did not change, or that is hidden.
    static func updated(_ owned: OwnedLocation?, in course: CourseID) -> [LocationChange.Kind] {
        guard let owned, !owned.isHidden else { return [] }
        return [.updated(owned.location, in: course)]
    }

    /// The locations `query` selects (`locationColumns`, in order), each read as its row arrives:
    /// a page is never held as rows and then copied out of them.
    static func locations(_ query: any SQLExpression, on database: any SQLDatabase) async throws -> [StudentLocation] {
        let reading = LocationReading()
        try await database.execute(sql: query) { reading.read($0) }
        return try reading.locations()
    }

    static func owned(from row: any SQLRow) throws -> OwnedLocation {
        if let row = row as? any PositionalSQLRow, row.columnNames.starts(with: locationColumnNames) { return try owned(fromPositional: row) }
        return OwnedLocation(
            location: StudentLocation(
                objectId: try row.decode(column: LocationColumn.objectId.name, as: String.self),
                uniqueKey: try row.decode(column: LocationColumn.uniqueKey.name, as: String.self),
                firstName: try row.decode(column: LocationColumn.firstName.name, as: String.self),
                lastName: try row.decode(column: LocationColumn.lastName.name, as: String.self),
                mapString: try row.decode(column: LocationColumn.mapString.name, as: String.self),
                mediaURL: try row.decode(column: LocationColumn.mediaURL.name, as: String.self),
                latitude: try row.decode(column: LocationColumn.latitude.name, as: Double.self),
                longitude: try row.decode(column: LocationColumn.longitude.name, as: Double.self),
                createdAt: try row.decode(column: LocationColumn.createdAt.name, as: Int64.self),
                updatedAt: try row.decode(column: LocationColumn.updatedAt.name, as: Int64.self)),
            ownerKey: try row.optionalString(column: LocationColumn.ownerKey.name),
            hiddenAt: row.contains(column: "hidden_at") ? try row.optionalInt64(column: "hidden_at") : nil,
            course: row.contains(column: "course_id") ? CourseID(rawValue: try row.decode(column: "course_id", as: Int64.self)) : .default,
            awaitingApproval: try awaitingApproval(in: row))
    }

    /// Whether the row's pin waits for approval: false when the read did not ask.
    static func awaitingApproval(in row: any SQLRow) throws -> Bool {
        row.contains(column: "awaiting_approval") ? try row.decode(column: "awaiting_approval", as: Bool.self) : false
    }
}

extension SQLStore {
    /// `owned(from:)` for a row of `locationColumns` in their order (then `hidden_at` and
    /// `course_id`, when asked for), read by position; `awaiting_approval` by name.
    static func owned(fromPositional row: some PositionalSQLRow) throws -> OwnedLocation {
        let hidden = locationColumnNames.count, course = hidden + 1
        let hasHidden = row.columnNames.count > hidden && row.columnNames[hidden] == "hidden_at"
        let hasCourse = row.columnNames.count > course && row.columnNames[course] == "course_id"
        return OwnedLocation(
            location: try location(fromPositional: row),
            ownerKey: row.isNull(at: LocationColumn.ownerKey.rawValue) ? nil : try row.string(at: LocationColumn.ownerKey.rawValue),
            hiddenAt: hasHidden && !row.isNull(at: hidden) ? try row.int64(at: hidden) : nil,
            course: hasCourse ? CourseID(rawValue: try row.int64(at: course)) : .default,
            awaitingApproval: try awaitingApproval(in: row))
    }

    /// The pin alone, for the lists, which need neither its owner nor whether it is hidden.
    static func location(fromPositional row: some PositionalSQLRow) throws -> StudentLocation {
        func string(_ column: LocationColumn) throws -> String { try row.string(at: column.rawValue) }
        return StudentLocation(
            objectId: try string(.objectId), uniqueKey: try string(.uniqueKey), firstName: try string(.firstName),
            lastName: try string(.lastName), mapString: try string(.mapString), mediaURL: try string(.mediaURL),
            latitude: try row.double(at: LocationColumn.latitude.rawValue), longitude: try row.double(at: LocationColumn.longitude.rawValue),
            createdAt: try row.int64(at: LocationColumn.createdAt.rawValue), updatedAt: try row.int64(at: LocationColumn.updatedAt.rawValue))
    }
}

/// The rows of one result as they arrive, read as locations. `SQLDatabase` hands rows over one at a
/// time and in order, and the result is read after the last: nothing here is touched concurrently.
private final class LocationReading: @unchecked Sendable {
    private var read: [StudentLocation] = []
    private var failure: (any Error)?
    /// Whether the rows can be read by position: asked of the first row only.
    private var positional: Bool?

    func read(_ row: any SQLRow) {
        guard failure == nil else { return }
        do {
            let positional = self.positional ?? {
                let answer = (row as? any PositionalSQLRow)?.columnNames.starts(with: SQLStore.locationColumnNames) ?? false
                self.positional = answer
                return answer
            }()
            // (A cast to the protocol measured cheaper here than one to the row's own type
            // through a generic closure, which the compiler cannot specialise.)
            if positional, let row = row as? any PositionalSQLRow {
                read.append(try SQLStore.location(fromPositional: row))
            } else {
                read.append(try SQLStore.owned(from: row).location)
            }
        } catch {
            failure = error
        }
    }

    func locations() throws -> [StudentLocation] {
        if let failure { throw failure }
        return read
    }
}

/// Concatenates two SQL fragments.
func + (lhs: any SQLExpression, rhs: any SQLExpression) -> any SQLExpression {
    SQLList([lhs, rhs], separator: SQLRaw(""))
}

extension LocationWriteRight {
    /// The condition on a `student_locations` row that this right reaches it, in parentheses.
    var condition: any SQLExpression {
        if isAdmin { return SQLRaw("TRUE") }
        var reaches: [SQLQueryString] = []
        if let accountKey { reaches.append("owner_key = \(bind: accountKey)") }
        if ownerlessPins { reaches.append("owner_key IS NULL") }
        guard !reaches.isEmpty else { return SQLRaw("FALSE") }
        return SQLList([SQLRaw("("), SQLList(reaches, separator: SQLRaw(" OR ")), SQLRaw(")")], separator: SQLRaw(""))
    }
}
