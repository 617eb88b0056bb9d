import XCTest
import Foundation

/// The HTTP server's behaviour seen from outside: a real `quartet serve` over real sockets.
final class PlatformHTTPTests: XCTestCase {
    var server: TestServer!

    override func setUpWithError() throws {
        server = try TestServer(environment: ["QUARTET_ADMIN_PASSWORD": PlatformHTTPTests.adminPassword,
                                              "QUARTET_SERVER_HEADER_READ_TIMEOUT_SECONDS": "2"])
    }

    override func tearDown() { server?.stop() }

    static let adminPassword = "correct horse battery staple"
    static var adminAuthorization: (String, String) {
        ("Authorization", "Basic " + Data("admin:\(adminPassword)".utf8).base64EncodedString())
    }

    func testStartupLineAndHealth() throws {
        XCTAssertTrue(server.output.contains("listening on http://127.0.0.1:\(server.port)"), server.output)
        let r = try server.request("GET", "/health")
        XCTAssertEqual(r.status, 200)
        XCTAssertEqual(r.object["status"] as? String, "ok")
        XCTAssertTrue(r.header("Content-Type")?.hasPrefix("application/json") ?? false)
        XCTAssertNotNil(r.header("Date"))
        XCTAssertTrue(r.header("Server")?.hasPrefix("Quartet") ?? false)
        XCTAssertNotNil(r.header("X-Request-Id"))
    }

    func testKeepAliveServesSeveralRequestsOnOneConnection() throws {
        let client = try server.connect()
        for _ in 0..<5 {
            let r = try client.request("GET", "/health")
            XCTAssertEqual(r.status, 200)
        }
    }

    func testThreePipelinedRequestsAnsweredInOrder() throws {
        let client = try server.connect()
        let bytes = HTTPTestClient.requestBytes("GET", "/health")
            + HTTPTestClient.requestBytes("GET", "/nope")
            + HTTPTestClient.requestBytes("GET", "/metrics")
        try client.send(bytes)
        XCTAssertEqual(try client.readResponse().status, 200)
        XCTAssertEqual(try client.readResponse().status, 404)
        let metrics = try client.readResponse()
        XCTAssertEqual(metrics.status, 200)
        XCTAssertTrue(metrics.text.contains("quartet_http_requests_total"))
    }

    /// A worker writes a small keep-alive answer itself and does not wake the I/O loop for it; the loop still
    /// finishes the request (access log, metrics, idle time-out) on its own while the client stays idle and
    /// nothing else happens on the server.
    func testAnswerOnAnIdleKeepAliveConnectionIsLoggedPromptly() throws {
        let idle = try server.connect()
        let id = "idle-\(UInt32.random(in: 0...UInt32.max))"
        XCTAssertEqual(try idle.request("GET", "/health", headers: [("X-Request-Id", id)]).status, 200)
        let deadline = Date().addingTimeInterval(2)
        while !server.output.contains(id) && Date() < deadline {
            Thread.sleep(forTimeInterval: 0.01)
        }
        XCTAssertTrue(server.output.contains(id), "no access-log line for the idle connection's request")
        // The connection was re-armed for its next request.
        XCTAssertEqual(try idle.request("GET", "/health").status, 200)
    }

    func testHeadAndMethodNotAllowed() throws {
        let head = try server.request("HEAD", "/health")
        XCTAssertEqual(head.status, 200)
        XCTAssertTrue(head.body.isEmpty)
        let del = try server.request("DELETE", "/health")
        XCTAssertEqual(del.status, 405)
        XCTAssertTrue(del.header("Allow")?.contains("GET") ?? false)
    }

    func testConnectionCloseIsHonoured() throws {
        let client = try server.connect()
        let r = try client.request("GET", "/health", headers: [("Connection", "close")])
        XCTAssertEqual(r.status, 200)
        XCTAssertTrue(client.waitForClose())
    }

    func testHTTP10WithoutKeepAliveCloses() throws {
        let client = try server.connect()
        try client.send("GET /health HTTP/1.0\r\n\r\n")
        let r = try client.readResponse()
        XCTAssertEqual(r.status, 200)
        XCTAssertTrue(client.waitForClose())
    }

    func testRequestTargetOverLimitIs414() throws {
        let atLimit = "/health?" + String(repeating: "a", count: 65_536 - 8)
        XCTAssertEqual(try server.request("GET", atLimit).status, 200)
        let over = atLimit + "a"
        XCTAssertEqual(try server.request("GET", over).status, 414)
    }

    func testHeaderSectionOverLimitIs431() throws {
        let tooMany = (0..<101).map { ("X-H\($0)", "v") }
        XCTAssertEqual(try server.request("GET", "/health", headers: tooMany).status, 431)
        let big = [("X-Big", String(repeating: "b", count: 70_000))]
        XCTAssertEqual(try server.request("GET", "/health", headers: big).status, 431)
        let fine = (0..<90).map { ("X-H\($0)", "v") }
        XCTAssertEqual(try server.request("GET", "/health", headers: fine).status, 200)
    }

    func testMalformedRequestGets400AndCloseWhileOthersKeepWorking() throws {
        let other = try server.connect()
        XCTAssertEqual(try other.request("GET", "/health").status, 200)
        for garbage in ["GARBAGE\r\n\r\n", "GET /health HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n",
                        "GET /he\u{0}alth HTTP/1.1\r\n\r\n", "GET /%zz HTTP/1.1\r\nHost: x\r\n\r\n",
                        "POST /_quartet/admin/backup HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n"] {
            let bad = try server.connect()
            try bad.send(garbage)
            let r = try bad.readResponse()
            XCTAssertEqual(r.status, 400, garbage)
            XCTAssertTrue(bad.waitForClose(), garbage)
        }
        XCTAssertEqual(try other.request("GET", "/health").status, 200)
    }

    func testSlowHeaderClientIsDropped() throws {
        let slow = try server.connect(timeout: 10)
        try slow.send("GET /health HTTP/1.1\r\nHost: x\r\n")   // never finishes its head
        let start = Date()
        XCTAssertTrue(slow.waitForClose())
        XCTAssertLessThan(Date().timeIntervalSince(start), 9)
        XCTAssertEqual(try server.request("GET", "/health").status, 200)
    }
}
