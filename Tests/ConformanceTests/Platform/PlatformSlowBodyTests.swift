import XCTest
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Request bodies must keep arriving at `server.minBodyBytesPerSecond`, with `server.bodyReadTimeoutSeconds`
/// of slack: a body trickled a byte at a time gets 408 in the API's error format and the connection closes,
/// while other connections are served and a slow but steady upload completes.
final class PlatformSlowBodyTests: XCTestCase {
    var parse: ParseServer!

    override func setUpWithError() throws {
        parse = try ParseServer(environment: ["QUARTET_SERVER_BODY_READ_TIMEOUT_SECONDS": "2",
                                              "QUARTET_SERVER_MIN_BODY_BYTES_PER_SECOND": "1024"])
    }

    override func tearDown() { parse?.stop() }

    private func createHead(length: Int) -> String {
        var head = "POST /parse/classes/Slow HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        for (name, value) in ParseServer.headers() { head += "\(name): \(value)\r\n" }
        return head + "Content-Length: \(length)\r\n\r\n"
    }

    func testTrickledBodyGets408WhileAnotherConnectionIsServed() throws {
        let body = Array("{\"s\":\"\(String(repeating: "a", count: 200))\"}".utf8)
        let slow = try parse.server.connect(timeout: 15)
        try slow.send(createHead(length: body.count))
        let started = Date()
        let answer = DSPending<TestResponse>()
        Thread.detachNewThread { answer.fulfil(Result { try slow.readResponse() }) }
        // One byte every 250 ms: the connection would be held for a minute at this pace.
        var sent = 0
        while sent < body.count - 1, Date().timeIntervalSince(started) < 10 {
            if (try? slow.send([body[sent]])) == nil { break }
            sent += 1
            if sent == 4 {
                // Meanwhile a normal create on another connection is answered at once.
                XCTAssertFalse(try parse.create("Fast", "{\"n\":1}").isEmpty)
            }
            usleep(250_000)
            if answer.isDone { break }
        }
        let r = try XCTUnwrap(try answer.wait(5))
        let elapsed = Date().timeIntervalSince(started)
        XCTAssertEqual(r.status, 408, r.text)
        XCTAssertEqual(r.object["code"] as? Int, 107, r.text)
        XCTAssertEqual(r.header("Connection"), "close")
        // Two seconds of slack and the rate the few bytes bought, swept every 100 ms.
        XCTAssertLessThan(elapsed, 6)
        XCTAssertLessThan(sent, body.count - 1)
        XCTAssertTrue(slow.waitForClose())
        XCTAssertEqual(try parse.masterCount("Slow"), 0)
        XCTAssertEqual(try parse.masterCount("Fast"), 1)
    }

    func testSlowSteadyUploadLongerThanTheSlackCompletes() throws {
        // 12 KiB at about 5 KiB/s: longer than the 2 s of slack, but above the minimum rate.
        let body = Array("{\"s\":\"\(String(repeating: "b", count: 12 * 1024))\"}".utf8)
        let client = try parse.server.connect(timeout: 15)
        try client.send(createHead(length: body.count))
        let started = Date()
        var offset = 0
        while offset < body.count {
            let end = min(offset + 512, body.count)
            try client.send(Array(body[offset..<end]))
            offset = end
            usleep(100_000)
        }
        XCTAssertGreaterThan(Date().timeIntervalSince(started), 2)
        let r = try client.readResponse()
        XCTAssertEqual(r.status, 201, r.text)
        XCTAssertEqual(try parse.masterCount("Slow"), 1)
    }
}
