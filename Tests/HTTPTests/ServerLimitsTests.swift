import Foundation
import XCTest
@testable import HTTP

final class ServerLimitsTests: XCTestCase {
    private func makeServer(_ configure: (inout ServerConfiguration) -> Void = { _ in }) throws -> TestServer {
        try TestServer(configure: { configuration in
            configuration.limits.maxRequestTarget = 1024
            configuration.limits.maxHeaderBytes = 2048
            configuration.limits.maxHeaderCount = 20
            configuration.limits.maxBodyBytes = 1000
            configure(&configuration)
        }) { router in
            let root = router.group("")
            root.get("/health") { _ in .response(.json(.ok, "{\"status\":\"ok\"}")) }
            root.post("/upload") { request in .response(.text(.ok, "got \(request.body.count)")) }
            root.post("/small", maxBodyBytes: 10) { request in .response(.text(.ok, "got \(request.body.count)")) }
            let couch = router.group("/couch", errorRenderer: { error, _ in
                let status = (error as? HTTPError)?.status ?? .internalServerError
                return .json(status, "{\"error\":\"too_long\",\"reason\":\"couch\"}")
            })
            couch.get("/db") { _ in .response(.text(.ok, "db")) }
        }
    }

    func testExpectContinueSends100ThenTheResponse() throws {
        let server = try makeServer()
        let client = try server.client()
        try client.send("POST /upload HTTP/1.1\r\nHost: a\r\nContent-Length: 4\r\nExpect: 100-continue\r\n\r\n")
        let interim = try client.readResponse()
        XCTAssertEqual(interim.status, 100)
        try client.send("data")
        let response = try client.readResponse()
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.text, "got 4")
    }

    func testExpectContinueOverTheRouteLimitIs413WithoutContinue() throws {
        let server = try makeServer()
        let client = try server.client()
        try client.send("POST /small HTTP/1.1\r\nHost: a\r\nContent-Length: 11\r\nExpect: 100-continue\r\n\r\n")
        let response = try client.readResponse()
        XCTAssertEqual(response.status, 413)
        XCTAssertTrue(client.waitForClose())
    }

    func testUnknownExpectationIs417() throws {
        let server = try makeServer()
        let client = try server.client()
        let response = try client.request("GET", "/health", headers: ["Expect": "something-else"])
        XCTAssertEqual(response.status, 417)
    }

    func testBodyAtTheLimitPassesAndOneMoreByteIs413() throws {
        let server = try makeServer()
        let client = try server.client()
        let ok = try client.request("POST", "/upload", body: String(repeating: "x", count: 1000))
        XCTAssertEqual(ok.text, "got 1000")
        let tooBig = try client.request("POST", "/upload", body: String(repeating: "x", count: 1001))
        XCTAssertEqual(tooBig.status, 413)
        XCTAssertTrue(client.waitForClose())
    }

    func testChunkedBodyOverTheLimitIs413() throws {
        let server = try makeServer()
        let client = try server.client()
        try client.send("POST /small HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n8\r\n12345678\r\n8\r\n12345678\r\n0\r\n\r\n")
        XCTAssertEqual(try client.readResponse().status, 413)
    }

    func testTargetAtTheLimitPassesAndLongerIs414RenderedByTheMatchingGroup() throws {
        let server = try makeServer()
        let client = try server.client()
        let exact = "/health?" + String(repeating: "a", count: 1024 - 8)
        XCTAssertEqual(try client.request("GET", exact).status, 200)
        let long = try server.client()
        let response = try long.request("GET", "/couch/db?" + String(repeating: "a", count: 1100))
        XCTAssertEqual(response.status, 414)
        XCTAssertEqual(response.text, "{\"error\":\"too_long\",\"reason\":\"couch\"}")
        let plain = try server.client()
        let plainResponse = try plain.request("GET", "/other?" + String(repeating: "a", count: 1100))
        XCTAssertEqual(plainResponse.status, 414)
        XCTAssertEqual(plainResponse.text, "{\"error\":\"request target too long\"}")
    }

    func testTooManyOrTooLargeHeadersAre431() throws {
        let server = try makeServer()
        let many = try server.client()
        var headers: [String: String] = [:]
        for index in 0..<25 { headers["X-H\(index)"] = "v" }
        XCTAssertEqual(try many.request("GET", "/health", headers: headers).status, 431)
        let large = try server.client()
        XCTAssertEqual(try large.request("GET", "/health", headers: ["X-Big": String(repeating: "b", count: 3000)]).status,
                       431)
    }

    func testMalformedRequestIs400AndClosedWhileOthersKeepWorking() throws {
        let server = try makeServer()
        let healthy = try server.client()
        XCTAssertEqual(try healthy.request("GET", "/health").status, 200)
        let bad = try server.client()
        try bad.send("GET /health HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n")
        XCTAssertEqual(try bad.readResponse().status, 400)
        XCTAssertTrue(bad.waitForClose())
        let garbage = try server.client()
        try garbage.send("\u{01}\u{02} nonsense\r\n\r\n")
        XCTAssertEqual(try garbage.readResponse().status, 400)
        XCTAssertEqual(try healthy.request("GET", "/health").status, 200)
    }

    func testInvalidPercentEncodingIs400() throws {
        let server = try makeServer()
        let client = try server.client()
        XCTAssertEqual(try client.request("GET", "/health%zz").status, 400)
    }

    func testGroupLimitsLowerTheServerLimits() throws {
        var lower = Limits()
        lower.maxRequestTarget = 50
        lower.maxHeaderCount = 5
        lower.maxBodyBytes = 4
        let server = try TestServer { router in
            router.group("/bb", limits: lower).post("/x") { request in .response(.text(.ok, "\(request.body.count)")) }
            router.group("").post("/x") { request in .response(.text(.ok, "\(request.body.count)")) }
        }
        let client = try server.client()
        XCTAssertEqual(try client.request("POST", "/bb/x", body: "1234").text, "4")
        XCTAssertEqual(try client.request("POST", "/bb/x?" + String(repeating: "q", count: 60), body: "").status, 414)
        let many = try server.client()
        var headers: [String: String] = [:]
        for index in 0..<6 { headers["X-\(index)"] = "v" }
        XCTAssertEqual(try many.request("POST", "/bb/x", headers: headers, body: "").status, 431)
        let big = try server.client()
        XCTAssertEqual(try big.request("POST", "/bb/x", body: "12345").status, 413)
        let root = try server.client()
        XCTAssertEqual(try root.request("POST", "/x", headers: headers, body: "12345").text, "5")
    }

    func testSlowHeaderClientIsDropped() throws {
        let server = try makeServer { $0.headerReadTimeout = .milliseconds(300) }
        let slow = try server.client()
        try slow.send("GET /health HTTP/1.1\r\nHost: a\r\n")
        let started = Date()
        XCTAssertTrue(slow.waitForClose())
        XCTAssertLessThan(Date().timeIntervalSince(started), 4)
        let fine = try server.client()
        XCTAssertEqual(try fine.request("GET", "/health").status, 200)
    }

    func testIdleKeepAliveConnectionIsClosed() throws {
        let server = try makeServer { $0.idleTimeout = .milliseconds(300) }
        let client = try server.client()
        XCTAssertEqual(try client.request("GET", "/health").status, 200)
        XCTAssertTrue(client.waitForClose())
    }

    func testConnectionsBeyondTheLimitAreClosed() throws {
        let server = try makeServer { $0.maxConnections = 2 }
        let first = try server.client()
        let second = try server.client()
        XCTAssertEqual(try first.request("GET", "/health").status, 200)
        XCTAssertEqual(try second.request("GET", "/health").status, 200)
        let third = try server.client()
        XCTAssertTrue(third.waitForClose())
        XCTAssertEqual(try first.request("GET", "/health").status, 200)
    }

    func testLargeBodiesAreSpooledToAFileThatIsDeletedAfterwards() throws {
        let directory = NSTemporaryDirectory() + "spool-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let seen = LockedBox<String?>(nil)
        let server = try TestServer(configure: { configuration in
            configuration.limits.inMemoryBodyThreshold = 100
            configuration.tempDirectory = directory
        }) { router in
            router.group("").post("/up") { request in
                if case .file(let path, _) = request.body { seen.set(path) }
                let bytes = try request.body.readAll(limit: 1 << 20)
                return .response(.text(.ok, "\(bytes.count) \(bytes.allSatisfy { $0 == UInt8(ascii: "z") })"))
            }
        }
        let client = try server.client()
        let response = try client.request("POST", "/up", body: String(repeating: "z", count: 5000))
        XCTAssertEqual(response.text, "5000 true")
        let path = try XCTUnwrap(seen.get())
        XCTAssertTrue(path.hasPrefix(directory))
        XCTAssertTrue(eventually { !FileManager.default.fileExists(atPath: path) })
    }
}

/// A value shared with handlers running on worker threads.
final class LockedBox<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value
    init(_ value: Value) { self.value = value }
    func get() -> Value { lock.withLock { value } }
    func set(_ newValue: Value) { lock.withLock { value = newValue } }
    func update(_ body: (inout Value) -> Void) { lock.withLock { body(&value) } }
}
