import XCTest
@testable import HTTP

/// Each limit exactly at its value (accepted) and one past it (refused), whole and trickled.
final class HTTPRequestParserLimitsTests: XCTestCase {
    private func request(target: String, headers: [String] = ["Host: h"]) -> String {
        "GET \(target) HTTP/1.1\r\n" + headers.map { $0 + "\r\n" }.joined() + "\r\n"
    }

    func testRequestTargetLimit() {
        let atLimit = "/" + String(repeating: "a", count: 65_535)
        XCTAssertNil(runParser(request(target: atLimit)).error)
        assertRejected(request(target: atLimit + "a"), .uriTooLong)
        let small = Limits(maxRequestTarget: 10)
        XCTAssertNil(runParser(request(target: "/123456789"), limits: small).error)
        assertRejected(request(target: "/1234567890"), .uriTooLong, limits: small)
    }

    func testUnterminatedRequestLineIsRefusedEarly() {
        let small = Limits(maxRequestTarget: 10)
        let run = runParser("GET /" + String(repeating: "a", count: 2000), limits: small)
        XCTAssertEqual(run.error, .uriTooLong)
    }

    func testHeaderCountLimit() {
        let hundred = ["Host: h"] + (1..<100).map { "X-\($0): v" }
        XCTAssertNil(runParser(request(target: "/", headers: hundred)).error)
        assertRejected(request(target: "/", headers: hundred + ["X-Last: v"]), .headerFieldsTooLarge)
    }

    func testHeaderBytesLimit() {
        // "Host: h\r\n" is 9 bytes; "X: " + value + "\r\n" is 5 + value bytes.
        let valueAtLimit = String(repeating: "v", count: 65_536 - 9 - 5)
        let atLimit = request(target: "/", headers: ["Host: h", "X: " + valueAtLimit])
        XCTAssertNil(runParser(atLimit).error)
        assertRejected(request(target: "/", headers: ["Host: h", "X: " + valueAtLimit + "v"]), .headerFieldsTooLarge)

        let small = Limits(maxHeaderBytes: 20)
        XCTAssertNil(runParser(request(target: "/", headers: ["Host: h", "X: 123456"]), limits: small).error)
        assertRejected(request(target: "/", headers: ["Host: h", "X: 1234567"]), .headerFieldsTooLarge, limits: small)
        // Trickled byte by byte the outcome is the same.
        let trickleOK = Array(request(target: "/", headers: ["Host: h", "X: 123456"]).utf8).map { [$0] }
        XCTAssertNil(runParser(trickleOK, limits: small).error)
        let trickleBad = Array(request(target: "/", headers: ["Host: h", "X: 1234567"]).utf8).map { [$0] }
        XCTAssertEqual(runParser(trickleBad, limits: small).error, .headerFieldsTooLarge)
    }

    func testUnterminatedHeaderIsRefusedEarly() {
        let run = runParser("GET / HTTP/1.1\r\nHost: h\r\nX: " + String(repeating: "v", count: 70_000))
        XCTAssertEqual(run.error, .headerFieldsTooLarge)
    }

    func testBodyLimit() {
        let limits = Limits(maxBodyBytes: 5)
        XCTAssertNil(runParser("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 5\r\n\r\n12345", limits: limits).error)
        let over = runParser("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 6\r\n\r\n123456", limits: limits)
        XCTAssertEqual(over.error, .payloadTooLarge)
        XCTAssertEqual(over.heads.count, 1, "the head is handed out first so the route can raise the limit")
        XCTAssertTrue(over.body.isEmpty, "no body byte is read past the limit")
    }

    func testSetBodyLimitRejectsContentLengthAtOnce() {
        var parser = HTTPRequestParser(limits: Limits())
        var events: [ParseEvent] = []
        let bytes = Array("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 100\r\n\r\n".utf8)
        XCTAssertNoThrow(try bytes.withUnsafeBytes { try parser.consume($0, into: &events) })
        XCTAssertThrowsError(try parser.setBodyLimit(99)) { XCTAssertEqual($0 as? HTTPError, .payloadTooLarge) }
    }
}
