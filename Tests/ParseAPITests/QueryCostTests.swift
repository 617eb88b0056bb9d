import XCTest
import Core
@testable import ParseAPI

/// Which finds count as heavy reads (`QueryCost`): those the regex engine checks row by row, and those no
/// index narrows, so that the store reads the whole class.
final class QueryCostTests: XCTestCase {
    var server: ParseTestServer!

    override func setUpWithError() throws {
        server = try ParseTestServer()
        let master = ParseTestServer.headers(master: true)
        _ = try server.json("POST", "/parse/schemas/G", headers: master, body: QuerySQLGoldenTests.schemaG, status: 200)
        _ = try server.json("PUT", "/parse/schemas/G", headers: master, body: #"{"indexes":{"n_1":{"n":1,"name":1}}}"#,
                            status: 200)
    }

    override func tearDown() { server.stop() }

    /// Whether the find of `params` on `className` is heavy, as a signed-in user plans it.
    func heavy(_ params: String, _ className: String = "G", file: StaticString = #filePath, line: UInt = #line) throws -> Bool {
        let options = try QueryOptions.parse(try XCTUnwrap(try JSONParser.parse(params).objectValue), config: ParseConfig())
        return try SQLiteParseStore(storage: server.storage).read { tx in
            let runner = QueryRunner(tx: tx, caller: QuerySQLGoldenTests.user, config: ParseConfig(), serverURL: "http://x",
                                     appId: "a")
            let target = try runner.resolve(className, options)
            let planned = try runner.plan(target, options, try runner.checkAccess(target, options, op: "find"))
            return QueryCost.isHeavy(planned, schema: target.schema, counts: options.count)
        }
    }

    func testIndexedFindsAreLight() throws {
        for params in [#"{}"#, #"{"limit":5}"#, #"{"order":"-createdAt"}"#, #"{"where":{"objectId":"abc"}}"#,
                       #"{"where":{"n":{"$gte":3}},"order":"name"}"#, #"{"where":{"n":3,"title":"x"}}"#,
                       #"{"where":{"createdAt":{"$gt":{"__type":"Date","iso":"2020-01-01T00:00:00.000Z"}}},"count":1}"#,
                       #"{"where":{"friends":{"__type":"Pointer","className":"_User","objectId":"u1"}}}"#,
                       #"{"where":{"name":{"$regex":"^abc\\z"},"n":1}}"#, #"{"order":"n"}"#] {
            XCTAssertFalse(try heavy(params), params)
        }
        XCTAssertFalse(try heavy(#"{"where":{"name":"admins"}}"#, "_Role"))
        XCTAssertFalse(try heavy(#"{}"#, "_Session"))
    }

    func testRegexScansAndWholeClassWorkAreHeavy() throws {
        for params in [#"{"where":{"name":{"$regex":"a+b"}}}"#, #"{"where":{"n":1,"name":{"$regex":"a+b"}}}"#,
                       #"{"where":{"title":"x"}}"#, #"{"where":{"$or":[{"n":1},{"n":2}]}}"#, #"{"order":"title"}"#,
                       #"{"count":1,"limit":0}"#, #"{"where":{"title":{"$regex":"^abc"}}}"#,
                       #"{"where":{"ref":{"$inQuery":{"className":"T2","where":{}}}}}"#,
                       #"{"where":{"loc":{"$nearSphere":{"__type":"GeoPoint","latitude":1,"longitude":2}}}}"#] {
            XCTAssertTrue(try heavy(params), params)
        }
        XCTAssertTrue(try heavy(#"{"where":{"username":"bob"}}"#, "_User"))
    }
}
