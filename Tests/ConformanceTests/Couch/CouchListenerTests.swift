import Foundation
import XCTest
import Core

/// Checklist CD-009 and CD-010: the optional root listener and the host-root `/_session` (spec §1.4).
final class CouchListenerTests: CouchTestCase {
    override var environment: [String: String] { ["QUARTET_COUCH_ROOT_LISTEN": "127.0.0.1:0"] }

    /// The root listener's port, from the start-up output.
    private func rootPort() throws -> Int {
        let output = server.output
        guard let range = output.range(of: "Couch API at the root of http://") else {
            throw XCTSkip("no root listener line in: \(output)")
        }
        let rest = output[range.upperBound...]
        let hostPort = rest.prefix { $0 != "\n" }
        return try XCTUnwrap(hostPort.split(separator: ":").last.flatMap { Int($0) })
    }

    func test_CD_009_theRootListenerServesTheSameAPI() throws {
        let client = try HTTPTestClient(port: try rootPort())
        defer { client.close() }
        let welcome = try client.request("GET", "/")
        XCTAssertEqual(welcome.status, 200)
        XCTAssertEqual(json(welcome)["couchdb"]?.stringValue, "Welcome")
        XCTAssertEqual(json(welcome)["uuid"]?.stringValue, json(try send("GET", "/"))["uuid"]?.stringValue)
        let created = try client.request("PUT", "/db2", headers: [("Authorization", Self.basic("admin", Self.password))])
        XCTAssertEqual(created.status, 201, created.text)
        XCTAssertEqual(created.header("Location")?.hasSuffix("/db2"), true)
        XCTAssertFalse(created.header("Location")?.contains("/couch/") ?? true)
        let seen = try send("GET", "/db2")
        XCTAssertEqual(seen.status, 200, seen.text)
        XCTAssertEqual(json(seen)["db_name"]?.stringValue, "db2")
    }

    func test_CD_010_formLoginAtTheHostRootGivesACookieForTheMount() throws {
        let login = try send("POST", "/_session", body: "name=admin&password=\(Self.password)", auth: .anonymous,
                             contentType: "application/x-www-form-urlencoded", raw: true)
        XCTAssertEqual(login.status, 200, login.text)
        let cookie = try XCTUnwrap(login.header("Set-Cookie"))
        XCTAssertTrue(cookie.hasPrefix("AuthSession="), cookie)
        let token = String(cookie.prefix { $0 != ";" })
        let r = try send("GET", "/db", headers: [("Cookie", token)], auth: .anonymous)
        XCTAssertEqual(r.status, 200, r.text)
        // Other methods at the root are Couch's answers too, never another API's error.
        let other = try send("PUT", "/_session", auth: .anonymous, raw: true)
        assertError(other, 405, "method_not_allowed", "Only GET,HEAD,POST,DELETE allowed")
    }
}
