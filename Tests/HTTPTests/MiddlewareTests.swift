import Synchronization
import XCTest
@testable import HTTP

final class MiddlewareTests: XCTestCase {
    /// Loopback is the trusted proxy here, so `X-Forwarded-For` lets one test client stand for many.
    private let viaProxy = ClientAddressResolver(trustedProxies: [IPRange.parse("127.0.0.1")].compactMap { $0 })

    private func limiter(count: Int) -> RateLimiter {
        RateLimiter(rules: [RateLimitRule(path: "/login", windowSeconds: 60, count: count)])
    }

    func testRateLimitMiddlewareRefusesPerClientAddress() throws {
        let server = try TestServer { router in
            let group = router.group("/api", middleware: [.rateLimit(self.limiter(count: 2), addresses: self.viaProxy)])
            group.post("/login") { _ in .response(.text(.ok, "in")) }
            group.get("/other") { _ in .response(.text(.ok, "other")) }
        }
        let client = try server.client()
        let alice = ["X-Forwarded-For": "203.0.113.1"]
        XCTAssertEqual(try client.request("POST", "/api/login", headers: alice).status, 200)
        XCTAssertEqual(try client.request("POST", "/api/login/", headers: alice).status, 200)
        let refused = try client.request("POST", "/api//login", headers: alice)
        XCTAssertEqual(refused.status, 429, "another spelling of the same path counts against the same rule")
        XCTAssertEqual(refused.text, #"{"error":"Too many requests."}"#)
        XCTAssertEqual(refused.header("Retry-After"), "60")
        XCTAssertEqual(try client.request("POST", "/api/login", headers: ["X-Forwarded-For": "203.0.113.2"]).status, 200,
                       "another client has its own counter")
        XCTAssertEqual(try client.request("GET", "/api/other", headers: alice).text, "other", "other paths are not limited")
    }

    func testARefusalIsRenderedByTheGroupsRenderer() throws {
        let server = try TestServer { router in
            let group = router.group("/api", errorRenderer: { error, _ in
                guard let refused = error as? RequestRefused else { return .text(.internalServerError, "?") }
                return .text(refused.status, "custom: " + refused.message)
            }, middleware: [.rateLimit(self.limiter(count: 0), addresses: self.viaProxy)])
            group.post("/login") { _ in .response(.text(.ok, "in")) }
        }
        let response = try server.client().request("POST", "/api/login", headers: ["X-Forwarded-For": "203.0.113.1"])
        XCTAssertEqual(response.status, 429)
        XCTAssertEqual(response.text, "custom: Too many requests.")
        XCTAssertEqual(response.header("Retry-After"), "60", "added when the renderer sets none")
    }

    func testAllowOnlyRefusesOtherAddresses() throws {
        let lan = [IPRange.parse("192.168.0.0/16")].compactMap { $0 }
        let server = try TestServer { router in
            router.group("/lan", middleware: [.allowOnly(lan, addresses: self.viaProxy)])
                .get("/x") { _ in .response(.text(.ok, "lan")) }
            router.group("/local", middleware: [.allowOnly(lan)]).get("/x") { _ in .response(.text(.ok, "local")) }
        }
        let client = try server.client()
        XCTAssertEqual(try client.request("GET", "/lan/x", headers: ["X-Forwarded-For": "192.168.1.9"]).text, "lan")
        let outside = try client.request("GET", "/lan/x", headers: ["X-Forwarded-For": "203.0.113.1"])
        XCTAssertEqual(outside.status, 403)
        XCTAssertEqual(outside.text, #"{"error":"forbidden"}"#)
        XCTAssertEqual(try client.request("GET", "/local/x", headers: ["X-Forwarded-For": "192.168.1.9"]).status, 403,
                       "without trusted proxies the forwarded address means nothing")
    }

    func testMiddlewareRunsInOrderAndMayAnswerOrAdjust() throws {
        let seen = Mutex<[String]>([])
        let server = try TestServer { router in
            let tag = Middleware { request in
                seen.withLock { $0.append("tag " + request.path) }
                request.headers.set("X-Tagged", "yes")
                return nil
            }
            let gate = Middleware { request in
                seen.withLock { $0.append("gate") }
                return request.headers["X-Let-In"] == nil ? .text(.unauthorized, "no") : nil
            }
            let group = router.group("/api", cors: CORSPolicy(), middleware: [tag, gate])
            group.get("/x") { request in .response(.text(.ok, "handler saw " + (request.headers["X-Tagged"] ?? "-"))) }
        }
        let client = try server.client()
        let stopped = try client.request("GET", "/api/x", headers: ["Origin": "https://app.example"])
        XCTAssertEqual(stopped.status, 401)
        XCTAssertEqual(stopped.text, "no")
        XCTAssertEqual(stopped.header("Access-Control-Allow-Origin"), "*", "a middleware answer gets the group's CORS")
        XCTAssertEqual(try client.request("GET", "/api/x", headers: ["X-Let-In": "1"]).text, "handler saw yes")
        XCTAssertEqual(seen.withLock { $0 }, ["tag /api/x", "gate", "tag /api/x", "gate"])
        XCTAssertEqual(try client.request("GET", "/api/missing").status, 404)
        XCTAssertEqual(seen.withLock { $0.count }, 4, "requests no route takes run no middleware")
    }

    func testAThrowingMiddlewareSkipsTheHandler() throws {
        let handled = Atomic<Int>(0)
        let server = try TestServer { router in
            let group = router.group("/api", middleware: [Middleware { _ in throw HTTPError.badRequest("no thanks") }])
            group.get("/x") { _ in
                handled.add(1, ordering: .relaxed)
                return .response(.text(.ok, "x"))
            }
        }
        let response = try server.client().request("GET", "/api/x")
        XCTAssertEqual(response.status, 400)
        XCTAssertEqual(response.text, #"{"error":"no thanks"}"#)
        XCTAssertEqual(handled.load(ordering: .relaxed), 0)
    }

    func testAGroupWithoutMiddlewareIsUnaffected() throws {
        let server = try TestServer { router in
            let limited = router.group("/limited", middleware: [.rateLimit(RateLimiter(rules: [{
                var rule = RateLimitRule(path: "*", windowSeconds: 60, count: 1)
                rule.includeLoopback = true
                return rule
            }()]))])
            limited.get("/x") { _ in .response(.text(.ok, "limited")) }
            router.group("/free").get("/x") { _ in .response(.text(.ok, "free")) }
            router.group("/free-io").on(.get, "/x", runsOnIOThread: true) { _ in .response(.text(.ok, "io")) }
        }
        let client = try server.client()
        XCTAssertEqual(try client.request("GET", "/limited/x").status, 200)
        XCTAssertEqual(try client.request("GET", "/limited/x").status, 429)
        for _ in 0..<20 {
            XCTAssertEqual(try client.request("GET", "/free/x").text, "free")
            XCTAssertEqual(try client.request("GET", "/free-io/x").text, "io")
        }
        let table = Router()
        _ = table.group("/a")
        _ = table.group("/b", middleware: [Middleware { _ in nil }])
        let groups = table.table().groups
        XCTAssertEqual(groups.first { $0.prefix == "/a" }?.hasMiddleware, false)
        XCTAssertEqual(groups.first { $0.prefix == "/b" }?.hasMiddleware, true)
    }

    func testRelativePathsAreNormalised() throws {
        func path(_ target: String, mount: String) throws -> String {
            var request = try HTTPRequest(method: .get, target: target)
            request.mountPath = mount
            return Middleware.relativePath(request)
        }
        XCTAssertEqual(try path("/parse/login", mount: "/parse"), "/login")
        XCTAssertEqual(try path("/parse", mount: "/parse"), "/")
        XCTAssertEqual(try path("/parse//classes/A/", mount: "/parse"), "/classes/A")
        XCTAssertEqual(try path("/x/y", mount: ""), "/x/y")
        XCTAssertEqual(try path("/a%20b/c", mount: ""), "/a b/c")
    }
}
