import XCTest
@testable import HTTP

final class CORSPolicyTests: XCTestCase {
    func testDefaultAllowsAnyOriginWithoutCredentials() {
        var headers = HTTPHeaders()
        CORSPolicy().apply(to: &headers, origin: "https://app.example")
        XCTAssertEqual(headers["Access-Control-Allow-Origin"], "*")
        XCTAssertNil(headers["Access-Control-Allow-Credentials"])
        XCTAssertNil(headers["Vary"])
    }

    func testCredentialsEchoTheOriginInsteadOfAWildcard() {
        var headers = HTTPHeaders()
        CORSPolicy(allowCredentials: true, exposedHeaders: ["X-Parse-Job-Status-Id"])
            .apply(to: &headers, origin: "https://app.example")
        XCTAssertEqual(headers["Access-Control-Allow-Origin"], "https://app.example")
        XCTAssertEqual(headers["Access-Control-Allow-Credentials"], "true")
        XCTAssertEqual(headers["Vary"], "Origin")
        XCTAssertEqual(headers["Access-Control-Expose-Headers"], "X-Parse-Job-Status-Id")
    }

    func testOnlyListedOriginsAreAllowed() {
        let policy = CORSPolicy(allowedOrigins: ["https://good.example"])
        var good = HTTPHeaders()
        policy.apply(to: &good, origin: "https://good.example")
        XCTAssertEqual(good["Access-Control-Allow-Origin"], "https://good.example")
        var bad = HTTPHeaders()
        policy.apply(to: &bad, origin: "https://evil.example")
        XCTAssertNil(bad["Access-Control-Allow-Origin"])
        var none = HTTPHeaders()
        policy.apply(to: &none, origin: nil)
        XCTAssertTrue(none.isEmpty)
    }

    func testPreflightEchoesRequestedHeadersAndListsMethods() throws {
        var headers = HTTPHeaders()
        headers.add("Origin", "https://app.example")
        headers.add("Access-Control-Request-Method", "PUT")
        headers.add("Access-Control-Request-Headers", "X-Parse-Application-Id, Content-Type")
        let request = try HTTPRequest(method: .options, target: "/parse/classes/A", headers: headers)
        let response = CORSPolicy(maxAge: 86_400).preflightResponse(for: request, methods: [.get, .put, .options])
        XCTAssertEqual(response.status, .noContent)
        XCTAssertEqual(response.headers["Access-Control-Allow-Origin"], "*")
        XCTAssertEqual(response.headers["Access-Control-Allow-Methods"], "GET, PUT, OPTIONS")
        XCTAssertEqual(response.headers["Access-Control-Allow-Headers"], "X-Parse-Application-Id, Content-Type")
        XCTAssertEqual(response.headers["Access-Control-Max-Age"], "86400")
        let fixed = CORSPolicy(allowedHeaders: ["Authorization"]).preflightResponse(for: request, methods: [.get])
        XCTAssertEqual(fixed.headers["Access-Control-Allow-Headers"], "Authorization")
    }

    func testServerAppliesCORSToResponsesAndAnswersPreflights() throws {
        let server = try TestServer { router in
            router.group("/api", cors: CORSPolicy()).get("/x") { _ in .response(.text(.ok, "x")) }
        }
        let client = try server.client()
        let simple = try client.request("GET", "/api/x", headers: ["Origin": "https://a.example"])
        XCTAssertEqual(simple.header("Access-Control-Allow-Origin"), "*")
        let preflight = try client.request("OPTIONS", "/api/x", headers: [
            "Origin": "https://a.example", "Access-Control-Request-Method": "GET"])
        XCTAssertEqual(preflight.status, 204)
        XCTAssertEqual(preflight.header("Access-Control-Allow-Methods"), "GET, HEAD, OPTIONS")
        let missing = try client.request("GET", "/api/nothing", headers: ["Origin": "https://a.example"])
        XCTAssertEqual(missing.status, 404)
        XCTAssertEqual(missing.header("Access-Control-Allow-Origin"), "*")
    }
}
