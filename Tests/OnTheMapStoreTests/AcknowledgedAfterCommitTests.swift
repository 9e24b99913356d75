import Foundation
import OnTheMapModel
@testable import OnTheMapStore
import OnTheMapTestSupport
import Testing

/// A write is answered only once PostgreSQL has committed it. A pin's write is one statement in an
/// implicit transaction (`LocationWriteSQL`), which PostgreSQL commits at the protocol's Sync,
/// after it has sent the statement's rows and CommandComplete. PostgresNIO ends the rows there, so
/// a commit that failed afterwards (the backend terminated by a fast shutdown or a crash, the
/// connection lost) went unnoticed, and the write was acknowledged and lost: the fault test's live
/// stream once missed such a write after a restart. A deferred constraint trigger, which PostgreSQL
/// checks at commit, stands in for that failure here, deterministically.
@Suite(.enabled(if: TestEngine.current == .postgres, "PostgreSQL commits a lone statement after its CommandComplete"))
struct AcknowledgedAfterCommitTests {
    @Test func aPinWhoseCommitFailsIsNotAcknowledgedAndChangesNothing() async throws {
        try await TestDatabase.withFresh { temporary in
            let database = try await temporary.open()
            let store = database.store
            #expect(store.writesEventsInStatements, "the write goes as one statement, the road this test is about")
            let owner = try await store.newAccount("Commit")
            let before = try await store.pin(owner, at: "Before")
            try await store.waitUntilEventsAreFinal()
            let lastEvent = try #require(try await store.locationEventRange()).upperBound
            try await temporary.refuseCommits()

            // Refused as the database being away is (a 503 with Retry-After): the write did not take.
            let pinRefused = await #expect(throws: StoreError.self) { try await store.pin(owner, at: "Refused at commit") }
            let deleteRefused = await #expect(throws: StoreError.self) { try await store.deleteLocation(objectId: before.objectId, in: .default) }
            #expect([pinRefused, deleteRefused].allSatisfy { $0?.isUnavailable == true }, "\(String(describing: pinRefused))")
            #expect(try await store.location(ownerKey: owner.key, in: .default)?.location.mapString == "Before")
            try await store.waitUntilEventsAreFinal()
            #expect(try await store.locationEvents(after: lastEvent, limit: 10).isEmpty)

            // The store goes on once commits succeed again (the pool replaces the connection it lost).
            try await temporary.executeInSchema("DELETE FROM refuse_commits")
            #expect(try await store.pin(owner, at: "After").mapString == "After")
            try await database.close()
        }
    }
}

extension StoreError {
    fileprivate var isUnavailable: Bool {
        if case .unavailable = self { true } else { false }
    }
}

extension TestDatabase {
    /// Every later commit that changed a pin fails, at the commit itself: a deferred constraint
    /// trigger raises while `refuse_commits` has a row.
    fileprivate func refuseCommits() async throws {
        try await executeInSchema("CREATE TABLE refuse_commits (at TEXT)")
        try await executeInSchema("""
            CREATE FUNCTION refuse_the_commit() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                IF EXISTS (SELECT 1 FROM refuse_commits) THEN
                    RAISE EXCEPTION 'commit refused by the test';
                END IF;
                RETURN NULL;
            END $$
            """)
        try await executeInSchema("""
            CREATE CONSTRAINT TRIGGER refuse_the_commit AFTER INSERT OR UPDATE OR DELETE ON student_locations
            DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION refuse_the_commit()
            """)
        try await executeInSchema("INSERT INTO refuse_commits VALUES ('now')")
    }
}
