import Foundation
import Synchronization
import XCTest
@testable import HTTP

/// Routes registered with an `attempt`: it answers what it can on the I/O thread, everything else goes to the
/// route's handler on a worker with the request the attempt saw.
final class ServerIOThreadAttemptTests: XCTestCase {
    /// How often the handler ran.
    final class Calls: Sendable {
        let count = Atomic<Int>(0)
    }

    /// One worker; `/block` holds it until `release`; `/doc/:id` answers `fast` ids in its attempt and the
    /// rest in its handler; the handler counts its calls.
    private func makeServer(release: DispatchSemaphore, entered: DispatchSemaphore,
                            handled: Calls = Calls()) throws -> TestServer {
        try TestServer(configure: { $0.workerThreads = 1 }) { router in
            let root = router.group("", cors: CORSPolicy(allowedOrigins: ["https://app.example"]))
            root.get("/block") { _ in
                entered.signal()
                release.wait()
                return .response(.text(.ok, "released"))
            }
            root.on([.get, .put], "/doc/:id", attempt: { request in
                guard request.pathParameters["id"]?.hasPrefix("fast") == true else { return nil }
                return .text(.ok, "attempt \(request.pathParameters["id"] ?? "") \(request.method.rawValue)")
            }) { request in
                handled.count.add(1, ordering: .relaxed)
                let body = try request.body.readAll(limit: 1 << 20)
                return .response(.text(.ok, "handler \(request.pathParameters["id"] ?? "") \(body.count)"))
            }
        }
    }

    func testAnAnsweringAttemptNeedsNoWorker() throws {
        let release = DispatchSemaphore(value: 0), entered = DispatchSemaphore(value: 0)
        let handled = Calls()
        let server = try makeServer(release: release, entered: entered, handled: handled)
        let blocked = try server.client(timeoutSeconds: 10)
        try blocked.send("GET /block HTTP/1.1\r\nHost: a\r\n\r\n")
        XCTAssertEqual(entered.wait(timeout: .now() + 5), .success, "the only worker never started /block")

        let client = try server.client(timeoutSeconds: 5)
        let fast = try client.request("GET", "/doc/fast1", headers: ["Origin": "https://app.example"])
        XCTAssertEqual(fast.status, 200)
        XCTAssertEqual(fast.text, "attempt fast1 GET")
        XCTAssertNotNil(fast.header("X-Request-Id"))
        XCTAssertEqual(fast.header("Access-Control-Allow-Origin"), "https://app.example", "CORS applies to attempts")
        XCTAssertEqual(handled.count.load(ordering: .relaxed), 0)
        release.signal()
        XCTAssertEqual(try blocked.readResponse().text, "released")
    }

    func testADecliningAttemptHandsTheRequestToTheHandler() throws {
        let release = DispatchSemaphore(value: 1), entered = DispatchSemaphore(value: 0)
        let handled = Calls()
        let server = try makeServer(release: release, entered: entered, handled: handled)
        let client = try server.client()
        XCTAssertEqual(try client.request("GET", "/doc/slow7").text, "handler slow7 0")
        XCTAssertEqual(handled.count.load(ordering: .relaxed), 1)
        // Pipelined, mixing both ways: answered in order.
        try client.send("GET /doc/slow1 HTTP/1.1\r\nHost: a\r\n\r\nGET /doc/fast2 HTTP/1.1\r\nHost: a\r\n\r\n"
                        + "GET /doc/slow3 HTTP/1.1\r\nHost: a\r\n\r\n")
        XCTAssertEqual(try client.readResponse().text, "handler slow1 0")
        XCTAssertEqual(try client.readResponse().text, "attempt fast2 GET")
        XCTAssertEqual(try client.readResponse().text, "handler slow3 0")
        XCTAssertEqual(handled.count.load(ordering: .relaxed), 3)
    }

    func testARequestWithABodyNeverMeetsTheAttempt() throws {
        let release = DispatchSemaphore(value: 1), entered = DispatchSemaphore(value: 0)
        let server = try makeServer(release: release, entered: entered)
        let client = try server.client()
        XCTAssertEqual(try client.request("PUT", "/doc/fast9", body: "hello").text, "handler fast9 5")
        XCTAssertEqual(try client.request("PUT", "/doc/fast9", body: "").text, "attempt fast9 PUT")
    }

    func testRouteTableKeepsTheAttempt() {
        let router = Router()
        let root = router.group("/api")
        root.on([.get], "/quick", attempt: { _ in nil }) { _ in .response(.text(.ok, "")) }
        root.get("/slow") { _ in .response(.text(.ok, "")) }
        guard case .matched(let quick) = router.resolve(method: .get, host: nil, rawPath: "/api/quick"),
              case .matched(let slow) = router.resolve(method: .get, host: nil, rawPath: "/api/slow") else {
            return XCTFail("routes not found")
        }
        XCTAssertNotNil(quick.route.attempt)
        XCTAssertNil(slow.route.attempt)
    }
}
