import XCTest
import Foundation

/// Failed server-admin logins are limited per client address (`admin.maxFailedLogins` within
/// `admin.failedLoginWindowSeconds`), on every route that checks the server admin.
final class PlatformAdminLoginTests: XCTestCase {
    var server: TestServer!

    override func tearDown() { server?.stop() }

    static let password = PlatformHTTPTests.adminPassword

    static func basic(_ password: String) -> (String, String) {
        ("Authorization", "Basic " + Data("admin:\(password)".utf8).base64EncodedString())
    }

    /// `POST /_quartet/admin/backup` into a fresh folder of the data directory.
    func backup(_ password: String, from source: String) throws -> TestResponse {
        let destination = server.dataDirectory.appendingPathComponent("backup-\(UUID().uuidString)").path
        return try server.request("POST", "/_quartet/admin/backup", headers: [Self.basic(password)],
                                  body: "{\"destination\":\"\(destination)\"}", source: source)
    }

    func assertRateLimited(_ r: TestResponse, window: Int, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(r.status, 429, r.text, file: file, line: line)
        XCTAssertTrue(r.header("Content-Type")?.hasPrefix("application/json") ?? false, file: file, line: line)
        XCTAssertNotNil(r.object["error"] as? String, r.text, file: file, line: line)
        let retryAfter = r.header("Retry-After").flatMap { Int($0) }
        XCTAssertNotNil(retryAfter, "Retry-After", file: file, line: line)
        XCTAssertTrue((1...window).contains(retryAfter ?? 0), "Retry-After \(retryAfter ?? 0)", file: file, line: line)
    }

    func testEleventhWrongPasswordWithinAMinuteIs429WhileAnotherAddressStillGetsIn() throws {
        server = try TestServer(environment: ["QUARTET_ADMIN_PASSWORD": Self.password])
        for attempt in 1...10 {
            let r = try backup("wrong \(attempt)", from: "127.0.0.1")
            XCTAssertEqual(r.status, 401, "attempt \(attempt): \(r.text)")
        }
        assertRateLimited(try backup("wrong 11", from: "127.0.0.1"), window: 60)
        // The address is refused whatever it sends, so it cannot keep guessing; on Datastore's admin routes too.
        assertRateLimited(try backup(Self.password, from: "127.0.0.1"), window: 60)
        assertRateLimited(try server.request("POST", "/_quartet/admin/datastore/tokens",
                                             headers: [Self.basic(Self.password),
                                                       ("Content-Type", "application/x-www-form-urlencoded")],
                                             body: "user=alice", source: "127.0.0.1"), window: 60)
        // Another address (127.0.0.2 is loopback too) with the right password still gets in.
        let ok = try backup(Self.password, from: "127.0.0.2")
        XCTAssertEqual(ok.status, 200, ok.text)
        XCTAssertEqual(ok.object["ok"] as? Bool, true)
        let issued = try server.request("POST", "/_quartet/admin/datastore/tokens",
                                        headers: [Self.basic(Self.password), ("Content-Type", "application/x-www-form-urlencoded")],
                                        body: "user=alice", source: "127.0.0.2")
        XCTAssertEqual(issued.status, 200, issued.text)
    }

    func testTheLimitAndWindowAreConfigurable() throws {
        server = try TestServer(environment: ["QUARTET_ADMIN_PASSWORD": Self.password,
                                              "QUARTET_ADMIN_MAX_FAILED_LOGINS": "2",
                                              "QUARTET_ADMIN_FAILED_LOGIN_WINDOW_SECONDS": "2"])
        XCTAssertEqual(try backup("wrong", from: "127.0.0.3").status, 401)
        XCTAssertEqual(try backup("wrong", from: "127.0.0.3").status, 401)
        assertRateLimited(try backup("wrong", from: "127.0.0.3"), window: 2)
        // Once the window has passed, the address may try again.
        Thread.sleep(forTimeInterval: 2.2)
        XCTAssertEqual(try backup(Self.password, from: "127.0.0.3").status, 200)
    }

    func testRequestsWithoutCredentialsAreNotFailedLogins() throws {
        server = try TestServer(environment: ["QUARTET_ADMIN_PASSWORD": Self.password,
                                              "QUARTET_ADMIN_MAX_FAILED_LOGINS": "1"])
        for _ in 0..<3 {
            let r = try server.request("POST", "/_quartet/admin/backup", body: "{}", source: "127.0.0.4")
            XCTAssertEqual(r.status, 401)
        }
        XCTAssertEqual(try backup(Self.password, from: "127.0.0.4").status, 200)
    }
}
