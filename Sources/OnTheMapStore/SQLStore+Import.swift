import OnTheMapModel
import SQLKit

extension SQLStore {
    /// Why an import was refused; nothing was written.
    public struct ImportConflict: Error, Sendable, Equatable {
        /// Imported objectIds the database already holds.
        public let existing: [String]
    }

    /// Adds `locations` to `course` in one transaction: all of them or, on any failure, none. A
    /// location whose objectId the database already holds (in any course) refuses the whole import.
    /// A location is owned by the account whose key is its uniqueKey (as the API's writes are) when
    /// that account exists and has no pin in the course yet; otherwise it is stored without an
    /// owner, as an anonymous post is. Returns how many got an owner. The import starts a new epoch
    /// of the event log (one event, however many rows): running servers' live streams reload.
    public func importLocations(_ locations: [StudentLocation], into course: CourseID = .default) async throws -> Int {
        let chunks = stride(from: 0, to: locations.count, by: 200).map { Array(locations[$0..<min($0 + 200, locations.count)]) }
        var existing: [String] = []
        var accountsWithoutPin: Set<String> = []
        for chunk in chunks {
            let ids = SQLList(chunk.map { SQLBind($0.objectId) })
            existing += try await reader.select().column("object_id").from("student_locations")
                .where(SQLColumn("object_id"), .in, SQLGroupExpression(ids)).all().map { try $0.decode(column: "object_id", as: String.self) }
            let keys = SQLList(Set(chunk.map(\.uniqueKey)).map { SQLBind($0) })
            let free = try await reader.raw("""
                SELECT key FROM accounts WHERE key IN (\(keys))
                AND NOT EXISTS (SELECT 1 FROM student_locations WHERE owner_key = accounts.key AND course_id = \(bind: course.rawValue))
                """).all()
            accountsWithoutPin.formUnion(try free.map { try $0.decode(column: "key", as: String.self) })
        }
        guard existing.isEmpty else { throw ImportConflict(existing: existing.sorted()) }
        var owners: [String?] = []
        for location in locations {
            owners.append(accountsWithoutPin.remove(location.uniqueKey) != nil ? location.uniqueKey : nil)
        }
        var statements: [any SQLExpression] = []
        var offset = 0
        for chunk in chunks {
            let rows = chunk.enumerated().map { index, location in
                SQLGroupExpression([
                    SQLBind(location.objectId), SQLBind(owners[offset + index]), SQLBind(location.uniqueKey), SQLBind(location.firstName),
                    SQLBind(location.lastName), SQLBind(location.mapString), SQLBind(location.mediaURL), SQLBind(location.latitude),
                    SQLBind(location.longitude), SQLBind(location.createdAt), SQLBind(location.updatedAt), SQLBind(course.rawValue),
                ] as [any SQLExpression])
            }
            statements.append(SQLList(
                [SQLRaw("INSERT INTO student_locations (\(Self.locationColumns), course_id) VALUES "), SQLList(rows)], separator: SQLRaw("")))
            offset += chunk.count
        }
        try await writer.perform(WriteUnit(statements) { _ in ((), [.rewritten]) })
        return owners.compactMap { $0 }.count
    }
}
