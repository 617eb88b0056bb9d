import XCTest
import Core
import Storage
@testable import ParseAPI

/// The SQL of representative queries, compared with golden text: moving query planning away from SQL
/// rendering must not change a single statement (same text, same arguments, same index use).
final class QuerySQLGoldenTests: XCTestCase {
    var server: ParseTestServer!

    /// Fields of every type the compiler treats apart, a full-text index, and a class whose find and count
    /// are restricted to pointer fields (for the pointer-permission and subquery terms).
    static let schemaG = #"{"fields":{"name":{"type":"String"},"n":{"type":"Number"},"flag":{"type":"Boolean"},"#
        + #""when":{"type":"Date"},"owner":{"type":"Pointer","targetClass":"_User"},"ref":{"type":"Pointer","targetClass":"T2"},"#
        + #""tags":{"type":"Array"},"friends":{"type":"Relation","targetClass":"_User"},"loc":{"type":"GeoPoint"},"#
        + #""area":{"type":"Polygon"},"meta":{"type":"Object"},"title":{"type":"String"}}}"#
    static let schemaT2 = #"{"fields":{"x":{"type":"Number"},"name":{"type":"String"},"#
        + #""owner":{"type":"Pointer","targetClass":"_User"},"tags":{"type":"Array"}},"#
        + #""classLevelPermissions":{"find":{"pointerFields":["owner"]},"count":{"pointerFields":["owner"]},"get":{"*":true},"#
        + #""create":{"*":true},"update":{"*":true},"delete":{"*":true},"addField":{"*":true}}}"#

    /// A signed-in user with a role.
    static let user: Caller = {
        var c = Caller(level: .user)
        c.userId = "u1"
        c.sessionId = "s1"
        c.roles = ["r1"]
        return c
    }()

    static func caller(_ name: String) -> Caller {
        switch name {
        case "master": return .master
        case "user": return user
        default: return .publicCaller
        }
    }

    override func setUpWithError() throws {
        server = try ParseTestServer()
        let master = ParseTestServer.headers(master: true)
        _ = try server.json("POST", "/parse/schemas/G", headers: master, body: Self.schemaG, status: 200)
        _ = try server.json("PUT", "/parse/schemas/G", headers: master, body: #"{"indexes":{"title_text":{"title":"text"}}}"#,
                            status: 200)
        _ = try server.json("POST", "/parse/schemas/T2", headers: master, body: Self.schemaT2, status: 200)
    }

    override func tearDown() { server.stop() }

    /// A bound value as the goldens print it (`SQLScalar`'s cases).
    static func scalar(_ v: SQLValue) -> SQLScalar {
        switch v {
        case .integer(let i): return .integer(i)
        case .real(let d): return .real(d)
        case .text(let t): return .text(t)
        default: return .null
        }
    }

    static func describe(_ sql: String, _ args: [SQLScalar]) -> [String] {
        [sql, args.map { "\($0)" }.joined(separator: ", ")]
    }

    /// The condition of `where` as the compiler plans it and the SQLite renderer renders it, with its
    /// arguments and the compiler's side results.
    func whereLines(_ caller: Caller, _ className: String, _ whereText: String) throws -> [String] {
        let w = try XCTUnwrap(try JSONParser.parse(whereText).objectValue)
        let store = SQLiteParseStore(storage: server.storage)
        return try store.read { tx in
            var c = WhereCompiler(className: className, schema: try Schemas.load(className, tx), caller: caller,
                                  protectedFields: [], tx: tx, config: ParseConfig())
            do {
                let predicate = try c.compile(w)
                var renderer = SQLiteQueryRenderer()
                let sql = renderer.condition(predicate)
                let text = c.textSearch.map { "\($0.field)|\(SQLiteQueryRenderer.ftsExpression($0))" } ?? "-"
                let near = c.nearOrder.map { ref, point -> String in
                    var args: [SQLScalar] = []
                    let expr = SQLiteQueryRenderer.distanceExpr(ref, point, into: &args)
                    return Self.describe(expr, args).joined(separator: "\n")
                } ?? "-"
                return Self.describe(sql, renderer.args) + ["residual=\(c.residual.count) text=\(text) near=\(near)"]
            } catch {
                return ["ERROR \(error)"]
            }
        }
    }

    func testWhereClausesRenderAsBefore() throws {
        for g in Self.whereGoldens {
            let got = try whereLines(Self.caller(g.caller), g.className, g.where)
            XCTAssertEqual(got.joined(separator: "\n"), g.expected.joined(separator: "\n"), "\(g.caller) \(g.className) \(g.where)")
        }
    }

    /// The statements a find sends, as the store renders the plans `QueryRunner` hands it.
    func findLines(_ caller: Caller, _ className: String, _ paramsText: String) throws -> [String] {
        let params = try XCTUnwrap(try JSONParser.parse(paramsText).objectValue)
        let options = try QueryOptions.parse(params, config: ParseConfig())
        let store = SQLiteParseStore(storage: server.storage)
        return try store.read { tx in
            guard let sqlite = tx as? SQLiteTransaction else { throw ParseError(1, "not SQLite") }
            let recorder = RecordingTransaction(tx)
            var runner = QueryRunner(tx: recorder, caller: caller, config: ParseConfig(), serverURL: "http://x", appId: "a")
            runner.serializedResults = true
            var lines: [String] = []
            do {
                _ = try runner.find(className, options)
            } catch {
                lines.append("ERROR \(error)")
            }
            for (i, (kind, plan)) in recorder.plans.enumerated() {
                let q = SQLiteQueryRenderer.compile(plan)
                let (sql, args): (String, [SQLValue])
                switch kind {
                case "count": (sql, args) = sqlite.countSQL(q)
                case "stream": (sql, args) = sqlite.streamSQL(q)
                default: (sql, args) = sqlite.pagedSQL(q)
                }
                if i > 0 { lines.append("---") }
                lines.append(kind)
                lines += Self.describe(sql, args.map(Self.scalar))
            }
            return lines
        }
    }

    func testFindStatementsAsBefore() throws {
        for g in Self.findGoldens {
            let got = try findLines(Self.caller(g.caller), g.className, g.params)
            XCTAssertEqual(got.joined(separator: "\n"), g.expected.joined(separator: "\n"), "\(g.caller) \(g.className) \(g.params)")
        }
    }

    func testIndexExpressionsAreTheQueryExpressions() throws {
        let store = SQLiteParseStore(storage: server.storage)
        for g in Self.indexGoldens {
            let spec = try XCTUnwrap(try JSONParser.parse(g.spec).objectValue)
            let keys: [IndexKey] = try store.read { tx in
                try IndexKeys.keys(spec, schema: try XCTUnwrap(try Schemas.load("G", tx)))
            }
            XCTAssertEqual(keys.map(SQLiteQueryRenderer.indexExpression), g.expected, g.spec)
        }
    }
}
