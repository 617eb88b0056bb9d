import XCTest
import Core
import Storage
@testable import ParseAPI

/// The `where` compiler and the SQL renderer against a real database: generated SQL runs, binds values, and
/// uses indexes.
final class WhereSQLTests: XCTestCase {
    var server: ParseTestServer!

    override func setUpWithError() throws { server = try ParseTestServer() }
    override func tearDown() { server.stop() }

    func compile(_ whereText: String, className: String = "C") throws -> (String, [SQLScalar]) {
        let w = try XCTUnwrap(try JSONParser.parse(whereText).objectValue)
        let store = SQLiteParseStore(storage: server.storage)
        return try store.read { tx in
            var c = WhereCompiler(className: className, schema: try Schemas.load(className, tx), caller: .master, protectedFields: [],
                                  tx: tx, config: ParseConfig())
            var renderer = SQLiteQueryRenderer()
            let sql = renderer.condition(try c.compile(w))
            return (sql, renderer.args)
        }
    }

    /// The public caller's ACL condition is built once; it must be what the general construction gives,
    /// and callers with a user or roles must still get their own groups.
    func testPublicACLConditionIsTheGeneralOne() throws {
        let general = SQLiteQueryRenderer.aclConditionSQL(placeholder: "?")
        let publicCondition = try XCTUnwrap(SQLiteQueryRenderer.aclCondition(.publicCaller))
        XCTAssertEqual(publicCondition.0, general)
        XCTAssertEqual(publicCondition.1, .text(#"["*"]"#))
        var user = Caller(level: .user)
        user.userId = "u1"
        XCTAssertEqual(SQLiteQueryRenderer.aclCondition(user)?.1, .text(#"["*","u1"]"#))
        var roled = Caller(level: .anonymousPublic)
        roled.roles = ["admins"]
        XCTAssertEqual(SQLiteQueryRenderer.aclCondition(roled)?.1, .text(#"["*","role:admins"]"#))
        XCTAssertEqual(SQLiteQueryRenderer.aclCondition(.publicCaller, placeholder: "?7")?.0,
                       SQLiteQueryRenderer.aclConditionSQL(placeholder: "?7"))
        XCTAssertNil(SQLiteQueryRenderer.aclCondition(.master))
    }

    func testValuesAreBoundNotInlined() throws {
        let (sql, args) = try compile(#"{"name":"x'); DROP TABLE parse_objects; --","n":{"$in":[1,2,3]}}"#)
        XCTAssertFalse(sql.contains("DROP"))
        XCTAssertEqual(args.first, .text("x'); DROP TABLE parse_objects; --"))
        XCTAssertTrue(args.contains(.text("[1,2,3]")))
    }

    func testComparisonsOnTypedFieldsSkipTheTypeTestAndMatchTheSame() throws {
        for body in [#"{"n":1,"s":"a"}"#, #"{"n":2.5,"s":"b"}"#, #"{"n":3,"s":"c"}"#, #"{"n":null,"s":null}"#, #"{"other":true}"#,
                     #"{"o":{"n":"2"}}"#, #"{"o":{"n":2}}"#] {
            _ = try server.json("POST", "/parse/classes/C", body: body, status: 201)
        }
        // n is a Number and s a String in the schema: every stored value has that type (or is null or absent),
        // so the json_type test is left out; a path into an Object has no schema type and keeps it.
        let (typed, _) = try compile(#"{"n":{"$gte":2}}"#)
        XCTAssertFalse(typed.contains("json_type"), typed)
        let (text, _) = try compile(#"{"s":{"$lt":"c"}}"#)
        XCTAssertFalse(text.contains("json_type"), text)
        let (nested, _) = try compile(#"{"o.n":{"$gte":2}}"#)
        XCTAssertTrue(nested.contains("json_type"), nested)
        func count(_ w: String) throws -> Int {
            try server.json("GET", "/parse/classes/C?where=" + (w.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""),
                            status: 200)["results"]?.arrayValue?.count ?? -1
        }
        XCTAssertEqual(try count(#"{"n":{"$gte":2}}"#), 2)
        XCTAssertEqual(try count(#"{"n":{"$lt":3}}"#), 2)
        XCTAssertEqual(try count(#"{"s":{"$lt":"c"}}"#), 2)
        XCTAssertEqual(try count(#"{"s":{"$gt":"a"}}"#), 2)
        // Only the number 2 matches; the string "2" is another type.
        XCTAssertEqual(try count(#"{"o.n":{"$gte":2}}"#), 1)
    }

    func testNestingLimits() throws {
        var deep = #"{"a":1}"#
        for _ in 0..<11 { deep = #"{"$or":[\#(deep)]}"# }
        XCTAssertThrowsError(try compile(deep)) { XCTAssertEqual(($0 as? ParseError)?.code, 102) }
    }

    func testStoredHashFormatAndImportedHashes() throws {
        _ = try server.json("POST", "/parse/users", body: #"{"username":"cook","password":"secret"}"#, status: 201)
        let hash = try server.storage.read { db in
            try db.queryOne("SELECT json_extract(data, '$._hashed_password') AS h FROM parse_objects WHERE class = '_User'")?["h"].string
        }
        XCTAssertEqual(hash?.count, 60)
        XCTAssertTrue(hash?.hasPrefix("$2b$10$") ?? false)
        // Users imported from Parse Server keep their bcrypt hashes.
        for (name, imported, password) in [("imp1", "$2b$10$CCCCCCCCCCCCCCCCCCCCC.07SoMsclJg8ImIR6hQwcm7q7cPtwvQ6", "password"),
                                           ("imp2", "$2a$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW", "U*U")] {
            let data = JSON.object(["username": .string(name), "_username_folded": .string(name),
                                    "_hashed_password": .string(imported)]).serialized()
            try server.storage.writeAndWait { ctx in
                try ctx.db.run("INSERT INTO parse_objects (class, id, data, created_at, updated_at) VALUES ('_User', ?, ?, "
                               + "'2024-01-01T00:00:00.000Z', '2024-01-01T00:00:00.000Z')", [.text(name + "xxxxxx"), .text(data)])
            }
            let body = JSON.object(["username": .string(name), "password": .string(password)]).serialized()
            XCTAssertNotNil(try server.json("POST", "/parse/login", body: body, status: 200)["sessionToken"])
        }
    }

    func testDeclaredIndexIsUsed() throws {
        let master = ParseTestServer.headers(master: true)
        _ = try server.json("POST", "/parse/schemas/C", headers: master, body: #"{"fields":{"name":{"type":"String"}}}"#, status: 200)
        _ = try server.json("PUT", "/parse/schemas/C", headers: master, body: #"{"indexes":{"name_1":{"name":1}}}"#, status: 200)
        let (cond, args) = try compile(#"{"name":"x"}"#)
        let sqlArgs: [SQLValue] = [.text("C")] + args.map { a in
            switch a {
            case .text(let t): return .text(t)
            case .integer(let i): return .integer(i)
            case .real(let d): return .real(d)
            case .null: return .null
            }
        }
        let plan = try server.storage.read { db in
            try db.query("EXPLAIN QUERY PLAN SELECT o.id FROM parse_objects o WHERE o.class = ? AND (\(cond))", sqlArgs)
                .map { $0["detail"].string ?? "" }.joined(separator: "\n")
        }
        XCTAssertTrue(plan.contains("parse_idx_C_name_1"), plan)
    }

    /// The object queries name their class as a literal, so the partial index of a declared index is
    /// chosen when the statement is prepared (a bound class would get the statement planned again on
    /// every execution).
    func testObjectQueriesNameTheClassAsALiteralAndUseThePartialIndex() throws {
        let master = ParseTestServer.headers(master: true)
        _ = try server.json("POST", "/parse/schemas/C", headers: master, body: #"{"fields":{"n":{"type":"Number"}}}"#, status: 200)
        _ = try server.json("PUT", "/parse/schemas/C", headers: master, body: #"{"indexes":{"n_1":{"n":1}}}"#, status: 200)
        let (cond, args) = try compile(#"{"n":3}"#)
        let store = SQLiteParseStore(storage: server.storage)
        var q = CompiledQuery(className: "C")
        q.add(cond, args)
        let (sql, sqlArgs) = try store.read { tx in
            guard let t = tx as? SQLiteTransaction else { throw ParseError(1, "not SQLite") }
            return t.selectSQL(q, columns: "o.id")
        }
        XCTAssertTrue(sql.contains("o.class = 'C'"), sql)
        XCTAssertFalse(sqlArgs.contains(.text("C")))
        let plan = try server.storage.read { db in
            try db.query("EXPLAIN QUERY PLAN " + sql, sqlArgs).map { $0["detail"].string ?? "" }.joined(separator: "\n")
        }
        XCTAssertTrue(plan.contains("parse_idx_C_n_1"), plan)
        XCTAssertEqual(SQLPath.classLiteral("It's"), "'It''s'")
    }
}
