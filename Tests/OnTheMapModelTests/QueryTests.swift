import OnTheMapModel
import Testing

@Suite struct QueryTests {
    func parse(_ query: String, maxLimit: Int = 1000, maxSkip: Int = 10_000) throws -> LocationQuery {
        try LocationQuery.parse(QueryString.parse(query), maxLimit: maxLimit, maxSkip: maxSkip)
    }

    @Test func defaults() throws {
        let query = try parse("")
        #expect(query.limit == 100 && query.skip == 0 && query.order.isEmpty && query.filter == .all && !query.includeCount)
        #expect(query.isDefaultList)
        #expect(query.effectiveOrder == [SortKey(.updatedAt, descending: true), SortKey(.objectId, descending: false)])
        #expect(try parse("limit=100&order=-updatedAt&").isDefaultList)
        #expect(try !parse("limit=10").isDefaultList)
        #expect(try !parse("count=1").isDefaultList)
    }

    @Test func limitIsClampedAndValidated() throws {
        #expect(try parse("limit=5000", maxLimit: 1000).limit == 1000)
        #expect(try parse("limit=0").limit == 0)
        for bad in ["limit=-1", "limit=abc", "limit=", "limit=1.5", "skip=-1", "skip=x", "count=2"] {
            #expect(throws: APIError.self, "\(bad)") { try parse(bad) }
        }
    }

    @Test func skipHasACeiling() throws {
        #expect(try parse("skip=10000").skip == 10_000)
        #expect(try parse("skip=5", maxSkip: 5).skip == 5)
        #expect(throws: APIError.invalidQuery(
            "skip may be at most 5; narrow the list with where, or page by updatedAt instead.", parameter: "skip")) {
            try parse("skip=6", maxSkip: 5)
        }
        #expect(throws: APIError.self) { try parse("skip=10001") }
    }

    @Test func orderIgnoresUnknownKeys() throws {
        #expect(try parse("order=-updateAt").order.isEmpty)
        #expect(try parse("order=createdAt,-lastName,bogus").order == [SortKey(.createdAt, descending: false), SortKey(.lastName, descending: true)])
        #expect(try parse("order=%20-createdAt").order == [SortKey(.createdAt, descending: true)])
    }

    @Test func queryStringTolerance() {
        #expect(QueryString.parse("").isEmpty)
        #expect(QueryString.parse(nil).isEmpty)
        #expect(QueryString.parse("&&a=1&&b&").map { "\($0.name)=\($0.value)" } == ["a=1", "b="])
        #expect(QueryString.parse("where=%7B%22a%22%3A1%7D")[0].value == #"{"a":1}"#)
        #expect(QueryString.parse("x=a+b")[0].value == "a+b")
        #expect(QueryString.parse("x=%zz%")[0].value == "%zz%")
        #expect(QueryString.parse("x=%FF")[0].value == "\u{FFFD}")
    }

    @Test func whereBuildsTheExpectedFilter() throws {
        #expect(try parse(#"where={"uniqueKey":"1234"}"#).filter == .compare(.uniqueKey, .equal, .text("1234")))
        #expect(try parse(#"where={"uniqueKey":1234}"#).filter == .compare(.uniqueKey, .equal, .text("1234")))
        #expect(try parse(#"uniqueKey=1&where={"objectId":{"$in":["a","b"]}}"#).filter
                == .and([.compare(.uniqueKey, .equal, .text("1")), .oneOf(.objectId, [.text("a"), .text("b")], negated: false)]))
        #expect(try parse(#"where={"createdAt":{"$gt":{"__type":"Date","iso":"2019-05-21T20:59:15.162Z"}}}"#).filter
                == .compare(.createdAt, .greater, .timestamp(1_558_472_355_162)))
        #expect(try parse(#"where={"nope":"x"}"#).filter == LocationFilter.none)
        #expect(try parse(#"where={"nope":{"$ne":"x"}}"#).filter == .all)
        #expect(try parse(#"where={"uniqueKey":{"$exists":true}}"#).filter == .all)
        #expect(try parse(#"where={"$or":[{"uniqueKey":"a"},{"uniqueKey":"b"}]}"#).filter
                == .or([.compare(.uniqueKey, .equal, .text("a")), .compare(.uniqueKey, .equal, .text("b"))]))
    }

    @Test func emptyConstraintsAreNoConstraint() throws {
        let a = LocationFilter.compare(.uniqueKey, .equal, .text("a"))
        #expect(try parse("where={}").filter == .all)
        #expect(try parse(#"where={"$or":[{}]}"#).filter == .all)
        #expect(try parse(#"where={"$and":[{}]}"#).filter == .all)
        #expect(try parse(#"where={"$or":[{},{"uniqueKey":"a"}]}"#).filter == .all)
        #expect(try parse(#"where={"$and":[{},{"uniqueKey":"a"}]}"#).filter == a)
        #expect(try parse(#"where={"$or":[{"uniqueKey":"a"}]}"#).filter == a)
        #expect(try parse(#"where={"$or":[{"nope":"x"},{"uniqueKey":"a"}]}"#).filter == a)
        #expect(try parse(#"where={"$and":[{"nope":"x"},{"uniqueKey":"a"}]}"#).filter == LocationFilter.none)
        #expect(try parse("where={}").isDefaultList)
    }

    /// What runs in the cheap lane: reads an index answers whatever the table's size.
    @Test func indexedQueriesAreTheCheapOnes() throws {
        for cheap in ["", "order=-createdAt", "order=lastName&count=1", "order=objectId&skip=10000", "uniqueKey=1&order=mapString",
                      #"where={"objectId":{"$in":["a","b"]}}&order=-latitude&count=1"#,
                      #"where={"$or":[{"uniqueKey":"a"},{"objectId":"b"}]}"#,
                      #"where={"updatedAt":{"$gt":"2019-05-21T20:59:15.162Z"}}"#, #"where={}&order=firstName"#] {
            #expect(try parse(cheap).isIndexed, "\(cheap)")
        }
        for expensive in ["order=mapString", "order=-latitude,createdAt", #"where={"mapString":"Paris"}"#,
                          #"where={"uniqueKey":{"$ne":"a"}}"#, #"where={"$or":[{"uniqueKey":"a"},{"lastName":"b"}]}"#,
                          #"where={"createdAt":{"$gt":"2019-05-21T20:59:15.162Z"}}"#,
                          #"where={"updatedAt":{"$gt":"2019-05-21T20:59:15.162Z"}}&count=1"#] {
            #expect(try !parse(expensive).isIndexed, "\(expensive)")
        }
    }

    @Test func whereRejectsWhatItCannotRun() {
        for bad in [#"where={"#, #"where=[]"#, #"where={"$or":[]}"#, #"where={"$or":{}}"#, #"where={"a":{"$regex":"x"}}"#,
                    #"where={"$where":"1"}"#, #"where={"createdAt":"tomorrow"}"#, #"where={"latitude":"north"}"#,
                    #"where={"uniqueKey":{"$in":"x"}}"#, #"where={"uniqueKey":{"$exists":"yes"}}"#,
                    #"where={"uniqueKey":1.5}"#, #"where={"uniqueKey":true}"#] {
            #expect(throws: APIError.self, "\(bad)") { try parse(bad) }
        }
    }

    @Test func whereIsBoundedInDepth() {
        var clause = #"{"uniqueKey":"a"}"#
        for _ in 0..<10 { clause = #"{"$or":[\#(clause)]}"# }
        #expect(throws: APIError.self) { try parse("where=" + clause) }
    }
}
