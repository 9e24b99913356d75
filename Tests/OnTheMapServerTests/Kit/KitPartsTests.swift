import Foundation
import HTTPTypes
import NIOConcurrencyHelpers
@testable import OnTheMapKit
import OpenAPIRuntime
import Testing

/// The pieces of OnTheMapKit that need no server.
extension KitSuite {
@Suite struct KitPartsTests {
    @Test func datesAreReadInTheServersFormAndOthers() throws {
        let date = try #require(WireDate.parse("2019-05-21T20:59:15.162Z"))
        #expect(date.timeIntervalSince1970 == 1_558_472_355.162)
        #expect(WireDate.parse("2019-05-21T20:59:15Z")?.timeIntervalSince1970 == 1_558_472_355)
        #expect(WireDate.parse("1969-12-31T23:59:59.000Z")?.timeIntervalSince1970 == -1)
        #expect(WireDate.parse("2024-02-29T12:00:00.500Z")?.timeIntervalSince1970 == 1_709_208_000.5)
        #expect(WireDate.parse("2019-05-21T22:59:15.162+02:00") == date, "other offsets go to the formatter")
        #expect(WireDate.parse("2019-13-21T20:59:15.162Z") == nil)
        #expect(WireDate.parse("yesterday") == nil)
        #expect(WireDate.format(date) == "2019-05-21T20:59:15.162Z")
    }

    @Test func aQueryBecomesParsesParameters() throws {
        let since = try #require(WireDate.parse("2026-01-01T00:00:00.000Z"))
        let query = LocationQuery()
            .where(.lastName, .equals("Lovelace"))
            .where(.latitude, .greaterThan(10)).where(.latitude, .lessThanOrEqual(20.5))
            .where(.updatedAt, .greaterThanOrEqual(.date(since)))
            .where(.uniqueKey, .isIn(["a", "b"]))
            .ordered(by: .lastName).ordered(by: .updatedAt, .descending)
            .limit(20).skip(40).counted()
        let parameters = try query.parameters()
        #expect(parameters.where == #"{"lastName":"Lovelace","latitude":{"$gt":10,"$lte":20.5},"uniqueKey":{"$in":["a","b"]},"updatedAt":{"$gte":{"__type":"Date","iso":"2026-01-01T00:00:00.000Z"}}}"#)
        #expect(parameters.order == "lastName,-updatedAt")
        #expect(parameters.limit == "20" && parameters.skip == "40" && parameters.count == "1")
        let plain = try LocationQuery.latest().parameters()
        #expect(plain.where == nil && plain.order == "-updatedAt" && plain.limit == "100" && plain.count == nil)
        #expect(try LocationQuery().where(.objectId, .exists(true)).where(.mapString, .notIn(["x"])).parameters().where
                == #"{"mapString":{"$nin":["x"]},"objectId":{"$exists":true}}"#)
    }

    @Test func theUdacityPrefixIsStrippedOnceAndOnlyWhereItIs() {
        #expect(UdacityPrefixStripping.stripped(Data(")]}'\n{\"a\":1}".utf8)) == Data("{\"a\":1}".utf8))
        #expect(UdacityPrefixStripping.stripped(Data("{\"a\":1}".utf8)) == Data("{\"a\":1}".utf8))
    }

    /// A write whose answer was lost is sent again once, with the same Idempotency-Key, so the
    /// server does it once; an error answer is not retried.
    @Test func aLostAnswerIsRetriedOnceWithTheSameKey() async throws {
        let keys = NIOLockedValueBox<[String]>([])
        let middleware = RetryOnceWithKey(pause: .milliseconds(1))
        let request = HTTPRequest(method: .post, scheme: "http", authority: "x", path: "/v1/StudentLocation")
        let base = URL(fileURLWithPath: "/")
        let (response, _) = try await middleware.intercept(request, body: HTTPBody("{}"), baseURL: base, operationID: "v1-create") { request, _, _ in
            let count = keys.withLockedValue { keys in
                keys.append(request.headerFields[.idempotencyKey] ?? "")
                return keys.count
            }
            if count == 1 { throw ClientError(operationID: "v1-create", operationInput: "", causeDescription: "connection reset", underlyingError: URLError(.networkConnectionLost)) }
            return (HTTPResponse(status: .ok), nil)
        }
        #expect(response.status == .ok)
        let sent = keys.withLockedValue { $0 }
        #expect(sent.count == 2 && sent[0] == sent[1] && UUID(uuidString: sent[0]) != nil)

        let answered = NIOLockedValueBox(0)
        await #expect(throws: ClientError.self) {
            _ = try await middleware.intercept(request, body: HTTPBody("{}"), baseURL: base, operationID: "v1-create") { _, _, _ in
                answered.withLockedValue { $0 += 1 }
                throw ClientError(operationID: "v1-create", operationInput: "", causeDescription: "answer",
                                  underlyingError: OnTheMapError(kind: .notOwner, status: 403, message: "not yours"))
            }
        }
        #expect(answered.withLockedValue { $0 } == 1)
    }
}
}
