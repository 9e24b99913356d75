import Foundation
import OnTheMapKit
@testable import OnTheMapServer
import Testing

/// OnTheMapKit's façade against a real server (the engine under test), through both transports.
extension KitSuite {
@Suite struct KitClientTests {
    @Test(arguments: KitTransport.allCases)
    func aStudentSignsUpPostsMovesAndDeletesTheirPin(transport: KitTransport) async throws {
        try await KitSuite.live { _, port in
            let client = transport.client(port: port)
            let email = freshEmail()
            let session = try await client.signUp(email: email, password: "correct horse battery", firstName: "Ada", lastName: "Lovelace")
            #expect(try await client.currentSession() == session)
            #expect(session.expiration.map { $0 > Date() } == true)

            var me = try await client.me()
            #expect(me.account.email == email && me.account.key == session.accountKey && me.location == nil)

            let posted = try await client.post(NewLocation(mapString: "Lima, Peru", mediaURL: "example.com/ada", latitude: -12.05, longitude: -77.04))
            let latest = try await client.latest(limit: 100)
            let pin = try #require(latest.first)
            #expect(pin.objectId == posted.objectId && pin.createdAt == posted.createdAt)
            #expect(pin.uniqueKey == session.accountKey && pin.firstName == "Ada" && pin.lastName == "Lovelace")
            #expect(pin.mediaURL == "https://example.com/ada", "the server puts https:// before a link without a scheme")
            #expect(abs(pin.createdAt.timeIntervalSinceNow) < 300, "dates are read with their milliseconds, in UTC")

            // Posting again overwrites the one pin, as the server says.
            let again = try await client.post(NewLocation(mapString: "Quito", mediaURL: "https://example.com", latitude: -0.18, longitude: -78.47))
            #expect(again.objectId == posted.objectId)

            let movedAt = try await client.overwrite(posted.objectId, with: NewLocation(
                mapString: "Cusco, Peru", mediaURL: "https://example.com/cusco", latitude: -13.53, longitude: -71.97))
            let moved = try await client.location(id: posted.objectId)
            #expect(moved.mapString == "Cusco, Peru" && moved.updatedAt == movedAt && moved.updatedAt > moved.createdAt)
            me = try await client.me()
            #expect(me.location == moved && !me.locationHidden)

            try await client.delete(posted.objectId)
            #expect(try await client.latest().isEmpty)
            #expect(await kindThrown { try await client.location(id: posted.objectId) }?.kind == .notFound)

            try await client.logOut()
            #expect(try await client.currentSession() == nil)
            #expect(await kindThrown { try await client.me() }?.kind == .notLoggedIn)
            // Logging out when logged out is no error, and logging in again works.
            try await client.logOut()
            try await client.logIn(email: email, password: "correct horse battery")
            #expect(try await client.me().account.email == email)
        }
    }

    @Test(arguments: KitTransport.allCases)
    func aQueryIsSentAsParseReadsIt(transport: KitTransport) async throws {
        try await KitSuite.live { server, port in
            for (first, last, latitude) in [("Ada", "Lovelace", 10.0), ("Grace", "Hopper", 20.0), ("Alan", "Turing", 30.0)] {
                let student = try await server.signUp(first: first, last: last)
                try await server.postLocation(as: student, mapString: "\(first)'s town", latitude: latitude, longitude: 0)
            }
            let client = transport.client(port: port)
            let byName = try await client.locations(LocationQuery().ordered(by: .lastName))
            #expect(byName.locations.map(\.lastName) == ["Hopper", "Lovelace", "Turing"])
            #expect(byName.count == nil)

            let north = try await client.locations(
                LocationQuery().where(.latitude, .greaterThan(15)).where(.latitude, .lessThanOrEqual(30)).ordered(by: .latitude, .descending).counted())
            #expect(north.locations.map(\.firstName) == ["Alan", "Grace"])
            #expect(north.count == 2)

            let named = try await client.locations(LocationQuery().where(.firstName, .isIn(["Ada", "Alan"])).where(.lastName, .notEquals("Turing")))
            #expect(named.locations.map(\.firstName) == ["Ada"])

            let page = try await client.locations(LocationQuery().ordered(by: .lastName).skip(1).limit(1).counted())
            #expect(page.locations.map(\.lastName) == ["Lovelace"] && page.count == 3)

            let now = Date()
            #expect(try await client.locations(LocationQuery().where(.updatedAt, .lessThan(.date(now.addingTimeInterval(60))))).locations.count == 3)
            #expect(try await client.locations(LocationQuery().where(.createdAt, .greaterThan(.date(now.addingTimeInterval(60))))).locations.isEmpty)
            #expect(try await client.locations(LocationQuery().where(.mapString, .exists(false))).locations.isEmpty)
            #expect(try await client.latest(limit: 2).map(\.firstName) == ["Alan", "Grace"])

            let refused = await kindThrown { try await client.locations(LocationQuery().where(.latitude, .equals(.number(.infinity)))) }
            #expect(refused?.kind == .invalid && refused?.parameter == "where" && refused?.status == nil, "refused before sending")
            let tooDeep = await kindThrown { try await client.locations(LocationQuery().skip(1_000_000)) }
            #expect(tooDeep?.kind == .invalid && tooDeep?.status == 400 && tooDeep?.code == 102)
        }
    }

    @Test(arguments: KitTransport.allCases)
    func theGeocoderAnswersAndSaysWhenItIsLoading(transport: KitTransport) async throws {
        try await KitSuite.live { _, port in
            let loading = await kindThrown { try await transport.client(port: port).geocode("Lima") }
            #expect(loading?.kind == .unavailable && loading?.status == 503 && loading?.retryAfter == .seconds(1))
        }
        try await KitSuite.live(geocoder: TestServer.loadedGeocoder) { _, port in
            let client = transport.client(port: port)
            let lima = try await client.geocode("close to Lima, Peru")
            let first = try #require(lima.places.first)
            #expect(first.countryCode == "PE" && first.accuracy == .city && abs(first.latitude + 12.05) < 0.2)
            #expect(lima.doubts.contains("context") && lima.confidence == .low)
            #expect(try await client.geocode("ada@example.com").places.isEmpty)
            let posted = NewLocation(place: first, typed: "close to Lima, Peru", mediaURL: "https://example.com")
            #expect(posted.latitude == first.latitude && posted.mapString == "close to Lima, Peru")
        }
    }
}
}
