import XCTest
import Core
import QueryKit
@testable import ParseAPI

/// The engine-neutral plan of a find: what `WhereCompiler` and `QueryRunner` hand the store, before any
/// SQL. Subqueries carry their class and the caller's access terms; residual conditions are typed.
final class QueryPlanTests: XCTestCase {
    var server: ParseTestServer!

    override func setUpWithError() throws {
        server = try ParseTestServer()
        let master = ParseTestServer.headers(master: true)
        _ = try server.json("POST", "/parse/schemas/G", headers: master, body: QuerySQLGoldenTests.schemaG, status: 200)
        _ = try server.json("POST", "/parse/schemas/T2", headers: master, body: QuerySQLGoldenTests.schemaT2, status: 200)
    }

    override func tearDown() { server.stop() }

    /// The compiler's predicate for `where` on `className`, with the compiler for its side results.
    func compile(_ whereText: String, className: String = "G", caller: Caller = QuerySQLGoldenTests.user) throws
        -> (QueryPredicate, WhereCompiler) {
        let w = try XCTUnwrap(try JSONParser.parse(whereText).objectValue)
        return try SQLiteParseStore(storage: server.storage).read { tx in
            var c = WhereCompiler(className: className, schema: try Schemas.load(className, tx), caller: caller,
                                  protectedFields: [], tx: tx, config: ParseConfig())
            return (try c.compile(w), c)
        }
    }

    /// The one clause of a one-key `where`.
    func only(_ p: QueryPredicate, file: StaticString = #filePath, line: UInt = #line) -> QueryPredicate? {
        guard case .allOf(let parts) = p, parts.count == 1 else { XCTFail("\(p)", file: file, line: line); return nil }
        if case .allOf(let inner) = parts[0], inner.count == 1 { return inner[0] }
        return parts[0]
    }

    func testSubqueriesCarryTheirClassAndTheCallersAccess() throws {
        let (p, _) = try compile(#"{"ref":{"$inQuery":{"className":"T2","where":{"x":1}}}}"#)
        guard case .pointsInto(let ref, let sub)? = only(p) else { return XCTFail("\(p)") }
        XCTAssertEqual(ref.path, ["ref"])
        XCTAssertEqual(sub.className, "T2")
        XCTAssertEqual(sub.key.column, .objectId)
        // T2 restricts find to its `owner` pointer: the inner query reads as the caller does.
        XCTAssertEqual(sub.access.count, 2)
        guard case .readable(let group)? = sub.access.first else { return XCTFail("\(sub.access)") }
        XCTAssertEqual(group, .names(["*", "u1", "role:r1"]))
        guard case .pointsToUser(let fields, let userId)? = sub.access.last else { return XCTFail("\(sub.access)") }
        XCTAssertEqual(fields, ["owner"])
        XCTAssertEqual(userId, "u1")

        let (master, _) = try compile(#"{"name":{"$dontSelect":{"query":{"className":"T2"},"key":"name"}}}"#, caller: .master)
        guard case .not(.selectedBy(let left, let selected))? = only(master) else { return XCTFail("\(master)") }
        XCTAssertEqual(left.path, ["name"])
        XCTAssertEqual(selected.className, "T2")
        XCTAssertEqual(selected.key.path, ["name"])
        XCTAssertEqual(selected.key.type, .string)
        XCTAssertTrue(selected.access.isEmpty, "the master key reads without access terms")
    }

    func testRelationsNameTheirOwnerClass() throws {
        let (related, _) = try compile(
            #"{"$relatedTo":{"object":{"__type":"Pointer","className":"G","objectId":"g1"},"key":"friends"}}"#, caller: .master)
        guard case .memberOf(let relation, let owner)? = only(related) else { return XCTFail("\(related)") }
        XCTAssertEqual(relation, RelationField(className: "G", field: "friends"))
        XCTAssertEqual(owner, "g1")
        // A caller who cannot read the owner gets nothing, decided while planning.
        let (hidden, _) = try compile(
            #"{"$relatedTo":{"object":{"__type":"Pointer","className":"G","objectId":"nosuch"},"key":"friends"}}"#)
        guard case .constant(false)? = only(hidden) else { return XCTFail("\(hidden)") }
        let (has, _) = try compile(#"{"friends":{"__type":"Pointer","className":"_User","objectId":"u9"}}"#)
        guard case .relationHas(let field, let member)? = only(has) else { return XCTFail("\(has)") }
        XCTAssertEqual(field, RelationField(className: "G", field: "friends"))
        XCTAssertEqual(member, "u9")
    }

    func testColumnsAndOperandsAreNormalised() throws {
        let (created, _) = try compile(#"{"createdAt":{"$lt":"2024-01-01T00:00:00Z"}}"#)
        guard case .column(.createdAt, .lessThan, let ts)? = only(created) else { return XCTFail("\(created)") }
        XCTAssertEqual(ts, "2024-01-01T00:00:00.000Z")
        let (pointer, _) = try compile(#"{"owner":"u1"}"#)
        guard case .pointerId(let ref, .equal, "u1")? = only(pointer) else { return XCTFail("\(pointer)") }
        XCTAssertEqual(ref.type, .pointer("_User"))
        let (empty, _) = try compile(#"{"undeclared":{"$in":[]}}"#)
        guard case .constant(false)? = only(empty) else { return XCTFail("\(empty)") }
        let (exists, _) = try compile(#"{"objectId":{"$exists":false}}"#)
        guard case .constant(false)? = only(exists) else { return XCTFail("\(exists)") }
    }

    func testResidualFiltersAreTypedAndMatchValuesOrElements() throws {
        let (p, c) = try compile(#"{"name":{"$regex":"^a+b$"}}"#)
        guard case .constant(true)? = only(p), c.residual.count == 1, case .regex(let path, _) = c.residual[0] else {
            return XCTFail("\(p) \(c.residual)")
        }
        XCTAssertEqual(path, JSONPath(["name"]))
        func object(_ data: JSONObject) -> StoredObject {
            StoredObject(className: "G", objectId: "x", data: data, acl: nil, createdAt: "", updatedAt: "")
        }
        XCTAssertTrue(c.residual[0].matches(object(["name": "aab"])))
        XCTAssertFalse(c.residual[0].matches(object(["name": "abc"])))
        XCTAssertTrue(c.residual[0].matches(object(["name": ["x", "ab"]])))
        XCTAssertFalse(c.residual[0].matches(object(["other": "ab"])))
        // Only at the top level: elsewhere a non-literal pattern is refused.
        XCTAssertThrowsError(try compile(#"{"$or":[{"name":{"$regex":"^a+b$"}}]}"#)) {
            XCTAssertEqual($0 as? ParseError, ParseError(102, "Unsupported regular expression feature."))
        }
        let words = ResidualFilter.containsAll(field: "title", words: ["Cake", "free"])
        XCTAssertTrue(words.matches(object(["title": "Cake, sugar free"])))
        XCTAssertFalse(words.matches(object(["title": "cake, sugar free"])))
    }

    func testSearchTermsFollowMongoDB() {
        let t = WhereCompiler.searchTerms(#"cake "sugar free" -nuts  pie -"#)
        XCTAssertEqual(t.words, ["cake", "pie", "-"])
        XCTAssertEqual(t.phrases, ["sugar free"])
        XCTAssertEqual(t.excluded, ["nuts"])
        let search = TextSearch(className: "G", field: "title", words: t.words, phrases: t.phrases, excluded: t.excluded)
        XCTAssertEqual(SQLiteQueryRenderer.ftsExpression(search), #"("cake" OR "pie" OR "-") AND "sugar free" NOT "nuts""#)
    }

    /// The plan `QueryRunner` builds: the `where`, the caller's access terms, a session's own user, the
    /// sort keys with the members they compare, and the page.
    func testFindPlan() throws {
        func plan(_ className: String, _ params: String, caller: Caller) throws -> QueryRunner.FindPlan {
            let q = try QueryOptions.parse(try XCTUnwrap(try JSONParser.parse(params).objectValue), config: ParseConfig())
            return try SQLiteParseStore(storage: server.storage).read { tx in
                let runner = QueryRunner(tx: tx, caller: caller, config: ParseConfig(), serverURL: "http://x", appId: "a")
                let target = try runner.resolve(className, q)
                return try runner.plan(target, q, try runner.checkAccess(target, q, op: "find"))
            }
        }
        let p = try plan("G", #"{"order":"-when,owner,name","limit":5,"skip":2}"#, caller: .publicCaller)
        XCTAssertEqual(p.query.className, "G")
        XCTAssertEqual(p.query.limit, 5)
        XCTAssertEqual(p.query.skip, 2)
        XCTAssertEqual(p.query.conditions.count, 2)
        guard case .readable(.everyone) = p.query.conditions[1] else { return XCTFail("\(p.query.conditions)") }
        let keys = p.query.order.map { key -> String in
            guard case .field(let ref, let member, let descending) = key else { return "\(key)" }
            return (descending ? "-" : "") + (ref.path + (member.map { [$0] } ?? [])).joined(separator: ".")
        }
        XCTAssertEqual(keys, ["-when.iso", "owner.objectId", "name"])

        let near = try plan("G", #"{"where":{"loc":{"$nearSphere":{"__type":"GeoPoint","latitude":1,"longitude":2}}}}"#,
                            caller: .master)
        XCTAssertEqual(near.query.conditions.count, 1, "the master key reads without access terms")
        guard case .distance(let ref, let point)? = near.query.order.first else { return XCTFail("\(near.query.order)") }
        XCTAssertEqual(ref.path, ["loc"])
        XCTAssertEqual(point, GeoPoint(latitude: 1, longitude: 2))

        let sessions = try plan("_Session", "{}", caller: QuerySQLGoldenTests.user)
        guard case .storedText(let path, let user)? = sessions.query.conditions.last else {
            return XCTFail("\(sessions.query.conditions)")
        }
        XCTAssertEqual(path, ["user", "objectId"])
        XCTAssertEqual(user, "u1")
    }

    func testReaderGroups() {
        XCTAssertEqual(ReaderGroup(.publicCaller), .everyone)
        XCTAssertEqual(ReaderGroup(.publicCaller).names, ["*"])
        XCTAssertEqual(ReaderGroup(QuerySQLGoldenTests.user).names, ["*", "u1", "role:r1"])
    }

    func testIndexKeys() throws {
        let schema = ClassSchema(className: "G", fields: [("when", FieldDefinition(type: .date)),
                                                          ("owner", FieldDefinition(type: .pointer("_User"))),
                                                          ("n", FieldDefinition(type: .number))])
        XCTAssertEqual(try IndexKeys.keys(["when": 1, "owner": -1, "n": 1, "createdAt": -1], schema: schema),
                       [IndexKey(target: .path(["when", "iso"]), descending: false),
                        IndexKey(target: .path(["owner", "objectId"]), descending: true),
                        IndexKey(target: .path(["n"]), descending: false),
                        IndexKey(target: .column(.createdAt), descending: true)])
        for (bad, message) in [(["n": "text"], "Text indexes are not supported."), (["n": 2], "Index direction must be 1 or -1."),
                                (["nope": 1], "Field nope does not exist, cannot add index."),
                                ([:], "An index needs at least one field.")] as [(JSONObject, String)] {
            XCTAssertThrowsError(try IndexKeys.keys(bad, schema: schema)) { XCTAssertEqual($0 as? ParseError, ParseError(102, message)) }
        }
    }
}
