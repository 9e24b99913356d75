@testable import OnTheMapPostgres
import Testing

/// The database URL as libpq reads it, several hosts included: a primary that can move is named by
/// every host it may be on, and the server finds the one that takes writes.
@Suite struct PostgresAddressTests {
    @Test func oneHostIsReadAsBefore() throws {
        let address = try PostgresAddress("postgres://onthemap:secret@db.example.org:6432/onthemap?sslmode=require")
        #expect(address.endpoints == [.init(host: "db.example.org", port: 6432)])
        #expect(address.host == "db.example.org" && address.port == 6432)
        #expect(address.targetSessionAttributes == .any)
        #expect(address.movesBetweenHosts == false)
        #expect(address.description == "postgres://onthemap:***@db.example.org:6432/onthemap")
    }

    @Test func severalHostsAreEachAnEndpointInOrder() throws {
        let address = try PostgresAddress("postgresql://app:pw@db1:5432,db2,[::1]:5433/onthemap?target_session_attrs=read-write&sslmode=disable")
        #expect(address.endpoints == [.init(host: "db1", port: 5432), .init(host: "db2", port: 5432), .init(host: "::1", port: 5433)])
        #expect(address.username == "app" && address.password == "pw" && address.database == "onthemap")
        #expect(address.targetSessionAttributes == .readWrite)
        #expect(address.movesBetweenHosts)
        #expect(address.description == "postgres://app:***@db1:5432,db2:5432,[::1]:5433/onthemap?target_session_attrs=read-write")
        #expect(address.endpoints[2].description == "[::1]:5433")
    }

    @Test func oneEndpointAddressesEachHost() throws {
        let address = try PostgresAddress("postgres://app@db1:5432,db2:5433/onthemap?schema=course_a")
        let second = address.only(address.endpoints[1])
        #expect(second.endpoints == [.init(host: "db2", port: 5433)] && second.schema == "course_a" && !second.movesBetweenHosts)
    }

    @Test func theWriteURLMustNotAskForAStandby() {
        for attrs in ["read-only", "standby", "prefer-standby"] {
            #expect(throws: PostgresAddressError.self) { try PostgresAddress("postgres://app@db1,db2/onthemap?target_session_attrs=\(attrs)", role: .primary) }
            #expect((try? PostgresAddress("postgres://app@db1,db2/onthemap?target_session_attrs=\(attrs)", role: .standbys)) != nil)
        }
        #expect(throws: PostgresAddressError.self) { try PostgresAddress("postgres://app@db1/onthemap?target_session_attrs=sometimes") }
    }

    @Test func aBrokenHostListIsNamed() {
        for text in ["postgres://app@db1,,db2/onthemap", "postgres://app@db1:notaport/onthemap", "postgres://app@db1:99999/onthemap",
                     "postgres://app@[::1/onthemap"] {
            #expect(throws: PostgresAddressError.self, "\(text)") { try PostgresAddress(text) }
        }
    }

    @Test func aUnixSocketIsOneEndpoint() throws {
        let address = try PostgresAddress("postgres://app@/onthemap?host=/run/postgresql")
        #expect(address.socketDirectory == "/run/postgresql" && address.endpoints.count == 1)
        #expect(throws: PostgresAddressError.self) { try PostgresAddress("postgres://app@db1,db2/onthemap?host=/run/postgresql") }
    }
}

/// `--database-pooler` names one PgBouncer per database host, and never a schema of its own.
@Suite struct PostgresPoolerTests {
    @Test func onePoolerPerHostInTheSameOrder() throws {
        let database = try PostgresAddress("postgres://app@db1:5432,db2:5432/onthemap?target_session_attrs=read-write")
        #expect(PostgresPooler.whyNot(try PostgresAddress("postgres://app@db1:6432,db2:6432/onthemap"), for: database) == nil)
        let one = PostgresPooler.whyNot(try PostgresAddress("postgres://app@db1:6432/onthemap"), for: database)
        #expect(one?.contains("1 pooler host(s) for the database URL's 2") == true, "\(one ?? "")")
        let schema = PostgresPooler.whyNot(try PostgresAddress("postgres://app@db1:6432,db2:6432/onthemap?schema=a"), for: database)
        #expect(schema?.contains("search_path") == true)
    }
}

/// A WAL position as PostgreSQL writes it, `high/low` in hex, compares as a number.
@Suite struct LSNTests {
    @Test func positionsReadAsNumbersInOrder() {
        #expect(LSN(text: "0/3006490") == 0x3006490)
        #expect(LSN(text: "16/B374D848") == 0x16_B374_D848)
        #expect(LSN(text: "1/0")! > LSN(text: "0/FFFFFFFF")!)
        #expect(LSN(text: "nonsense") == nil && LSN(text: "1/2/3") == nil)
    }
}
