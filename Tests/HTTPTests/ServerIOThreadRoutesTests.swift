import Foundation
import XCTest
@testable import HTTP

/// Routes registered with `runsOnIOThread: true` are answered by the I/O thread that read them.
final class ServerIOThreadRoutesTests: XCTestCase {
    /// One worker, a `/block` route that holds it until `release` is signalled, an I/O-thread `/health`
    /// and an ordinary `/items/:id`.
    private func makeServer(release: DispatchSemaphore, entered: DispatchSemaphore) throws -> TestServer {
        try TestServer(configure: { $0.workerThreads = 1 }) { router in
            let root = router.group("")
            root.on(.get, "/health", runsOnIOThread: true) { request in
                .response(.json(.ok, "{\"status\":\"ok\",\"method\":\"\(request.method.rawValue)\"}"))
            }
            root.on(.post, "/health", runsOnIOThread: true) { request in
                .response(.text(.ok, "body \(try request.body.readAll(limit: 1 << 20).count)"))
            }
            root.get("/block") { _ in
                entered.signal()
                release.wait()
                return .response(.text(.ok, "released"))
            }
            root.get("/items/:id") { request in .response(.text(.ok, "item \(request.pathParameters["id"] ?? "")")) }
        }
    }

    func testIOThreadRouteAnswersWhileEveryWorkerIsBlocked() throws {
        let release = DispatchSemaphore(value: 0), entered = DispatchSemaphore(value: 0)
        let server = try makeServer(release: release, entered: entered)
        let blocked = try server.client(timeoutSeconds: 10)
        try blocked.send("GET /block HTTP/1.1\r\nHost: a\r\n\r\n")
        XCTAssertEqual(entered.wait(timeout: .now() + 5), .success, "the only worker never started /block")

        let other = try server.client(timeoutSeconds: 5)
        let health = try other.request("GET", "/health")
        XCTAssertEqual(health.status, 200)
        XCTAssertEqual(health.text, "{\"status\":\"ok\",\"method\":\"GET\"}")
        XCTAssertEqual(health.header("Content-Type"), "application/json; charset=utf-8")
        XCTAssertNotNil(health.header("X-Request-Id"))

        // An ordinary route on the same connection waits for the worker.
        try other.send("GET /items/7 HTTP/1.1\r\nHost: a\r\n\r\n")
        XCTAssertFalse(readable(other, withinMilliseconds: 200))
        release.signal()
        XCTAssertEqual(try other.readResponse().text, "item 7")
        XCTAssertEqual(try blocked.readResponse().text, "released")
    }

    func testPipelinedRequestsMixingIOThreadAndWorkerRoutesAnswerInOrder() throws {
        let release = DispatchSemaphore(value: 1), entered = DispatchSemaphore(value: 0)
        let server = try makeServer(release: release, entered: entered)
        let client = try server.client()
        try client.send("GET /items/1 HTTP/1.1\r\nHost: a\r\n\r\nGET /health HTTP/1.1\r\nHost: a\r\n\r\n"
                        + "GET /items/2 HTTP/1.1\r\nHost: a\r\n\r\nHEAD /health HTTP/1.1\r\nHost: a\r\n\r\n"
                        + "GET /health HTTP/1.1\r\nHost: a\r\n\r\n")
        XCTAssertEqual(try client.readResponse().text, "item 1")
        XCTAssertEqual(try client.readResponse().text, "{\"status\":\"ok\",\"method\":\"GET\"}")
        XCTAssertEqual(try client.readResponse().text, "item 2")
        let head = try client.readResponse(head: true)
        XCTAssertEqual(head.status, 200)
        XCTAssertEqual(head.text, "")
        XCTAssertEqual(try client.readResponse().text, "{\"status\":\"ok\",\"method\":\"GET\"}")
    }

    func testIOThreadRouteWithABodyIsHandedToAWorker() throws {
        let release = DispatchSemaphore(value: 0), entered = DispatchSemaphore(value: 0)
        let server = try makeServer(release: release, entered: entered)
        let client = try server.client()
        let empty = try client.request("POST", "/health", body: "")
        XCTAssertEqual(empty.text, "body 0")
        // With a body the handler must not run on the I/O thread (it may read a spooled file), so it
        // queues for the worker like any other route.
        let blocked = try server.client(timeoutSeconds: 10)
        try blocked.send("GET /block HTTP/1.1\r\nHost: a\r\n\r\n")
        XCTAssertEqual(entered.wait(timeout: .now() + 5), .success)
        try client.send("POST /health HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\nhello")
        XCTAssertFalse(readable(client, withinMilliseconds: 200))
        release.signal()
        XCTAssertEqual(try client.readResponse().text, "body 5")
        XCTAssertEqual(try blocked.readResponse().text, "released")
    }

    func testIOThreadRouteClosesWhenTheRequestAsksForIt() throws {
        let release = DispatchSemaphore(value: 1), entered = DispatchSemaphore(value: 0)
        let server = try makeServer(release: release, entered: entered)
        // HTTP/1.1 with Connection: close, then HTTP/1.0 without keep-alive: the answer is written into the
        // output buffer on the I/O thread, says it closes, and the connection ends after it.
        let closing = ["GET /health HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n", "GET /health HTTP/1.0\r\n\r\n"]
        for request in closing {
            let client = try server.client()
            try client.send(request)
            let response = try client.readResponse()
            XCTAssertEqual(response.text, "{\"status\":\"ok\",\"method\":\"GET\"}")
            XCTAssertEqual(response.header("Connection"), "close")
            XCTAssertTrue(client.waitForClose())
        }
    }

    /// Whether the server sends anything on `client` within the time given.
    private func readable(_ client: RawClient, withinMilliseconds ms: Int32) -> Bool {
        var descriptor = pollfd(fd: client.fd, events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, ms) > 0
    }

    func testRouteTableKeepsTheFlag() {
        let router = Router()
        let root = router.group("/api")
        root.on(.get, "/quick", runsOnIOThread: true) { _ in .response(.text(.ok, "")) }
        root.get("/slow") { _ in .response(.text(.ok, "")) }
        guard case .matched(let quick) = router.resolve(method: .get, host: nil, rawPath: "/api/quick"),
              case .matched(let slow) = router.resolve(method: .get, host: nil, rawPath: "/api/slow") else {
            return XCTFail("routes not found")
        }
        XCTAssertTrue(quick.route.runsOnIOThread)
        XCTAssertFalse(slow.route.runsOnIOThread)
    }
}
