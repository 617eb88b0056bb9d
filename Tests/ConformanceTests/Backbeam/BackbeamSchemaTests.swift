import Foundation
import XCTest
import Core

/// The items that need a declared schema: BB-043 (strict), BB-057 (declared types), BB-068 (inverses).
final class BackbeamSchemaTests: XCTestCase {
    nonisolated(unsafe) static var server: BackbeamServer?
    static let strictKeys = BBKeys(key: "dev_strict_key", secret: "dev_strict_secret")
    static let typedKeys = BBKeys(key: "dev_typed_key", secret: "dev_typed_secret")

    var bb: BackbeamServer!

    override func setUpWithError() throws {
        if Self.server == nil {
            let strict = """
                ,"strict":{"dev":{"keys":[{"key":"\(Self.strictKeys.key)","secret":"\(Self.strictKeys.secret)"}]},\
                "schema":{"strict":true,"entities":{"place":{"fields":{"name":"t"}}}}}
                """
            let typed = """
                ,"typed":{"dev":{"keys":[{"key":"\(Self.typedKeys.key)","secret":"\(Self.typedKeys.secret)"}]},\
                "schema":{"entities":{"thing":{"fields":{"flag":"b"}},\
                "country":{"fields":{"cities":{"type":"r","to":"city","many":true,"inverse":"country"}}},\
                "city":{"fields":{"country":{"type":"r","to":"country"}}}}}}
                """
            Self.server = try BackbeamServer(extraProjects: strict + typed)
        }
        bb = Self.server
    }

    override class func tearDown() {
        server?.stop()
        server = nil
        super.tearDown()
    }

    func test_BB_043_strictSchema() throws {
        let c = bb.client("strict", "dev", keys: Self.strictKeys)
        assertError(try c.send("GET", "/data/undeclared"), 404, "EntityNotFound")
        assertError(try c.send("POST", "/data/place", p(("set-undeclared", "x"))), 400, "InvalidParameters")
        XCTAssertEqual(try c.send("GET", "/data/place")["count"]?.int64Value, 0, "nothing stored")
        XCTAssertEqual(try c.send("POST", "/data/place", p(("set-name", "ok"))).status, 201)
        XCTAssertEqual(try c.send("GET", "/data/place", p(("q", "where undeclared = ?"), ("params", "x"))).apiStatus, "InvalidQuery")
    }

    func test_BB_057_declaredTypeFromBareValues() throws {
        let c = bb.client("typed", "dev", keys: Self.typedKeys)
        let r = try c.send("POST", "/data/thing", p(("set-flag", "1")))
        XCTAssertEqual(r.status, 201, r.text)
        XCTAssertEqual(r.main?["flag#b"], .bool(true))
    }

    func test_BB_068_inverseRelationship() throws {
        let c = bb.client("typed", "dev", keys: Self.typedKeys)
        let k = try c.send("POST", "/data/country", p(("set-name", "K"))).id
        let l = try c.send("POST", "/data/country", p(("set-name", "L"))).id
        let city = try c.send("POST", "/data/city", p(("set-name", "C"))).id
        XCTAssertEqual(try c.send("PUT", "/data/country/\(k)", [("add-cities", [city])]).status, 200)
        XCTAssertEqual(try c.send("GET", "/data/city/\(city)").main?["country#r"]?.serialized(),
                       "{\"id\":\"\(k)\",\"type\":\"country\"}")
        XCTAssertEqual(try c.send("PUT", "/data/city/\(city)", p(("set-country", l))).status, 200)
        let kCities = try c.send("GET", "/data/country/\(k)", p(("joins", "join first 5 cities")))
        XCTAssertEqual(kCities.main?["cities#r"]?.serialized(), "{\"result\":[],\"count\":0}")
        let lCities = try c.send("GET", "/data/country/\(l)", p(("joins", "join first 5 cities")))
        XCTAssertEqual(lCities.main?["cities#r"]?.serialized(), "{\"result\":[\"\(city)\"],\"count\":1}")
    }
}
