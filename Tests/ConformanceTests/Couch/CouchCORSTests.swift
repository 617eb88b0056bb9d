import Foundation
import XCTest
import Core

/// Checklist CD-025: CORS, off by default (spec §2.9).
final class CouchCORSTests: CouchTestCase {
    override var environment: [String: String] {
        name.contains("Enabled") ? ["QUARTET_COUCH_CORS_ORIGINS": "https://app.example"] : [:]
    }

    func test_CD_025_corsOffByDefault() throws {
        let r = try send("OPTIONS", "/db", headers: [("Origin", "https://app.example"),
                                                     ("Access-Control-Request-Method", "GET")])
        XCTAssertFalse(r.headers.contains { $0.0.lowercased().hasPrefix("access-control-") }, "\(r.headers)")
        let get = try send("GET", "/db", headers: [("Origin", "https://app.example")])
        XCTAssertFalse(get.headers.contains { $0.0.lowercased().hasPrefix("access-control-") })
    }

    func test_CD_025_corsEnabledForAListedOrigin() throws {
        let preflight = try send("OPTIONS", "/db", headers: [("Origin", "https://app.example"),
                                                             ("Access-Control-Request-Method", "COPY"),
                                                             ("Access-Control-Request-Headers", "Content-Type, X-Evil")],
                                 auth: .anonymous)
        XCTAssertEqual(preflight.status, 200)
        XCTAssertEqual(preflight.body.count, 0)
        XCTAssertEqual(preflight.header("Access-Control-Allow-Origin"), "https://app.example")
        XCTAssertTrue(preflight.header("Access-Control-Allow-Methods")?.contains("COPY") ?? false)
        XCTAssertEqual(preflight.header("Access-Control-Allow-Headers"), "content-type")
        XCTAssertEqual(preflight.header("Access-Control-Max-Age"), "600")
        let other = try send("OPTIONS", "/db", headers: [("Origin", "https://other.example")], auth: .anonymous)
        XCTAssertEqual(other.status, 200)
        XCTAssertNil(other.header("Access-Control-Allow-Origin"))
        let get = try send("GET", "/db", headers: [("Origin", "https://app.example")])
        XCTAssertEqual(get.header("Access-Control-Allow-Origin"), "https://app.example")
        XCTAssertTrue(get.header("Access-Control-Expose-Headers")?.contains("etag") ?? false)
    }
}
