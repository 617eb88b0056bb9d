import XCTest
import Foundation

/// `/metrics` answers clients in `server.metricsAllowFrom` (loopback, 127.0.0.0/8 and ::1, by default) and
/// anyone with the server admin's credentials; others get 401 (no credentials) or 403 (wrong ones).
final class PlatformMetricsAccessTests: XCTestCase {
    var server: TestServer!

    override func tearDown() { server?.stop() }

    static let password = PlatformHTTPTests.adminPassword

    func metrics(from source: String, password: String? = nil) throws -> TestResponse {
        let headers = password.map { [PlatformAdminLoginTests.basic($0)] } ?? []
        return try server.request("GET", "/metrics", headers: headers, source: source)
    }

    func assertMetrics(_ r: TestResponse, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(r.status, 200, r.text, file: file, line: line)
        XCTAssertTrue(r.text.contains("quartet_storage_job_duration_seconds_count"), file: file, line: line)
    }

    func assertRefused(_ r: TestResponse, _ status: Int, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(r.status, status, r.text, file: file, line: line)
        XCTAssertTrue(r.header("Content-Type")?.hasPrefix("application/json") ?? false, file: file, line: line)
        XCTAssertNotNil(r.object["error"] as? String, r.text, file: file, line: line)
        XCTAssertFalse(r.text.contains("quartet_"), file: file, line: line)
    }

    func testLoopbackReadsMetricsByDefault() throws {
        server = try TestServer(environment: ["QUARTET_ADMIN_PASSWORD": Self.password])
        assertMetrics(try metrics(from: "127.0.0.1"))
        // All of 127.0.0.0/8 is loopback.
        assertMetrics(try metrics(from: "127.0.0.2"))
    }

    func testAnAddressOutsideTheListNeedsTheAdmin() throws {
        server = try TestServer(environment: ["QUARTET_ADMIN_PASSWORD": Self.password,
                                              "QUARTET_SERVER_METRICS_ALLOW_FROM": "127.0.0.1/32"])
        assertMetrics(try metrics(from: "127.0.0.1"))
        let bare = try metrics(from: "127.0.0.2")
        assertRefused(bare, 401)
        XCTAssertEqual(bare.header("WWW-Authenticate"), "Basic realm=\"quartet\"")
        assertRefused(try metrics(from: "127.0.0.2", password: "wrong"), 403)
        assertMetrics(try metrics(from: "127.0.0.2", password: Self.password))
    }

    func testAConfiguredScraperRangeIsAllowed() throws {
        server = try TestServer(environment: ["QUARTET_ADMIN_PASSWORD": Self.password,
                                              "QUARTET_SERVER_METRICS_ALLOW_FROM": "127.0.0.8/29,::1"])
        assertMetrics(try metrics(from: "127.0.0.9"))
        assertMetrics(try metrics(from: "127.0.0.15"))
        assertRefused(try metrics(from: "127.0.0.16"), 401)
        assertRefused(try metrics(from: "127.0.0.1"), 401)
    }

    func testAnEmptyListMeansTheAdminEverywhere() throws {
        server = try TestServer(environment: ["QUARTET_ADMIN_PASSWORD": Self.password,
                                              "QUARTET_SERVER_METRICS_ALLOW_FROM": "[]"])
        assertRefused(try metrics(from: "127.0.0.1"), 401)
        assertMetrics(try metrics(from: "127.0.0.1", password: Self.password))
        // /health stays open: container health checks send no credentials.
        XCTAssertEqual(try server.request("GET", "/health", source: "127.0.0.3").status, 200)
    }

    func testWrongPasswordsForMetricsCountAsFailedAdminLogins() throws {
        server = try TestServer(environment: ["QUARTET_ADMIN_PASSWORD": Self.password, "QUARTET_ADMIN_MAX_FAILED_LOGINS": "2",
                                              "QUARTET_SERVER_METRICS_ALLOW_FROM": "127.0.0.1"])
        assertRefused(try metrics(from: "127.0.0.5", password: "a"), 403)
        assertRefused(try metrics(from: "127.0.0.5", password: "b"), 403)
        let limited = try metrics(from: "127.0.0.5", password: Self.password)
        assertRefused(limited, 429)
        XCTAssertNotNil(limited.header("Retry-After"))
    }

    func testAnInvalidEntryStopsStartUp() throws {
        XCTAssertThrowsError(try TestServer(environment: ["QUARTET_SERVER_METRICS_ALLOW_FROM": "10.0.0.0/33"]))
    }
}
