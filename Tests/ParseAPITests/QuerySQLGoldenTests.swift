import XCTest
import Core
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

    static func describe(_ sql: String, _ args: [SQLScalar]) -> [String] {
        [sql, args.map { "\($0)" }.joined(separator: ", ")]
    }

    /// The condition of `where` as the compiler renders it, with its arguments and side results.
    func whereLines(_ caller: Caller, _ className: String, _ whereText: String) throws -> [String] {
        let w = try XCTUnwrap(try JSONParser.parse(whereText).objectValue)
        let store = SQLiteParseStore(storage: server.storage)
        return try store.read { tx in
            var c = WhereCompiler(className: className, schema: try Schemas.load(className, tx), caller: caller,
                                  protectedFields: [], tx: tx, config: ParseConfig())
            do {
                let sql = try c.compile(w)
                let text = c.textSearch.map { "\($0.field)|\($0.match)" } ?? "-"
                let near = c.nearOrder.map { Self.describe($0.0, $0.1).joined(separator: "\n") } ?? "-"
                return Self.describe(sql, c.args) + ["residual=\(c.residual.count) text=\(text) near=\(near)"]
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

    func testIndexExpressionsAreTheQueryExpressions() throws {
        let store = SQLiteParseStore(storage: server.storage)
        for g in Self.indexGoldens {
            let spec = try XCTUnwrap(try JSONParser.parse(g.spec).objectValue)
            let got: [String] = try store.read { tx in
                try IndexExpressions.indexExpressions(spec, schema: try XCTUnwrap(try Schemas.load("G", tx)))
            }
            XCTAssertEqual(got, g.expected, g.spec)
        }
    }
}
