import Foundation
import Glibc
import XCTest
@testable import HTTP

/// Request bodies that fall behind the minimum rate get 408 and the connection closes; others are served.
final class ServerSlowBodyTests: XCTestCase {
    private func makeServer(handled: LockedBox<Int>) throws -> TestServer {
        try TestServer(configure: {
            $0.bodyReadTimeout = .seconds(1)
            $0.minBodyBytesPerSecond = 1000
        }) { router in
            router.group("").post("/upload") { request in
                handled.update { $0 += 1 }
                return .response(.text(.ok, "got \(request.body.count)"))
            }
        }
    }

    func testBodyThatNeverComesGets408() throws {
        let handled = LockedBox(0)
        let server = try makeServer(handled: handled)
        let client = try server.client()
        try client.send("POST /upload HTTP/1.1\r\nHost: a\r\nContent-Length: 10\r\n\r\n")
        let response = try client.readResponse()
        XCTAssertEqual(response.status, 408)
        XCTAssertEqual(response.text, #"{"error":"request timeout"}"#)
        XCTAssertEqual(response.header("Connection"), "close")
        XCTAssertTrue(client.waitForClose())
        XCTAssertEqual(handled.get(), 0)
    }

    func testTrickledChunkedBodyGets408WhileAnotherClientIsServed() throws {
        let handled = LockedBox(0)
        let server = try makeServer(handled: handled)
        let slow = try server.client()
        try slow.send("POST /upload HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n")
        let other = try server.client()
        // A one-byte chunk every 200 ms (about 30 B/s with its framing) until the server answers.
        var chunks = 0
        while chunks < 50 && !Self.readable(slow.fd) {
            try slow.send("1\r\nx\r\n")
            chunks += 1
            if chunks == 2 { XCTAssertEqual(try other.request("POST", "/upload", body: "fast").text, "got 4") }
            usleep(200_000)
        }
        XCTAssertLessThan(chunks, 50)
        XCTAssertEqual(try slow.readResponse().status, 408)
        XCTAssertTrue(slow.waitForClose())
        XCTAssertEqual(handled.get(), 1)
    }

    func testBodyAtTheRateCompletesAfterTheSlack() throws {
        let handled = LockedBox(0)
        let server = try makeServer(handled: handled)
        let client = try server.client()
        try client.send("POST /upload HTTP/1.1\r\nHost: a\r\nContent-Length: 3000\r\n\r\n")
        // 300 bytes every 150 ms (2,000 B/s) for 1.5 s: longer than the 1 s slack.
        for _ in 0..<10 {
            try client.send([UInt8](repeating: 0x61, count: 300))
            usleep(150_000)
        }
        XCTAssertEqual(try client.readResponse().text, "got 3000")
        XCTAssertEqual(try client.request("POST", "/upload", body: "again").text, "got 5")
    }

    /// Whether the server has sent something on `fd` (without reading it).
    private static func readable(_ fd: Int32) -> Bool {
        var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, 0) > 0
    }
}
