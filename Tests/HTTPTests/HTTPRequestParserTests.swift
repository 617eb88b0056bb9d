import XCTest
@testable import HTTP

final class HTTPRequestParserTests: XCTestCase {
    func testSimpleGet() throws {
        let run = runParser("GET /health HTTP/1.1\r\nHost: localhost\r\nUser-Agent: wrk\r\n\r\n")
        XCTAssertNil(run.error)
        XCTAssertEqual(run.events.count, 2)
        let head = try XCTUnwrap(run.heads.first)
        XCTAssertEqual(head.method, .get)
        XCTAssertEqual(head.target, "/health")
        XCTAssertEqual(head.version, .http1_1)
        XCTAssertEqual(head.headers["host"], "localhost")
        XCTAssertEqual(head.headers["USER-AGENT"], "wrk")
        XCTAssertEqual(head.framing, .none)
        XCTAssertTrue(head.keepAlive)
        XCTAssertFalse(head.expectsContinue)
        XCTAssertEqual(run.events.last, .end)
        XCTAssertEqual(run.leftover, 0)
    }

    func testHeaderValuesAreTrimmedAndOrderKept() throws {
        let run = runParser("GET / HTTP/1.1\r\nHost: h\r\nX-A: \t one \t\r\nX-B:two\r\nx-a: three\r\nX-Empty:\r\n\r\n")
        let head = try XCTUnwrap(run.heads.first)
        XCTAssertEqual(head.headers.values("X-A"), ["one", "three"])
        XCTAssertEqual(head.headers["x-b"], "two")
        XCTAssertEqual(head.headers["X-Empty"], "")
        XCTAssertEqual(head.headers.map(\.name), ["Host", "X-A", "X-B", "x-a", "X-Empty"])
    }

    func testHeaderNamesKeepTheirCase() throws {
        let head = try XCTUnwrap(runParser("GET / HTTP/1.1\r\nhost: h\r\nUSER-AGENT: x\r\nUser-Agent: y\r\n\r\n").heads.first)
        XCTAssertEqual(head.headers.map(\.name), ["host", "USER-AGENT", "User-Agent"])
        XCTAssertEqual(head.headers.values("user-agent"), ["x", "y"])
    }

    func testOtherMethodsAndObsTextValue() throws {
        let run = runParser("COPY /db/doc HTTP/1.1\r\nHost: h\r\nDestination: caf\u{e9}\r\n\r\n")
        let head = try XCTUnwrap(run.heads.first)
        XCTAssertEqual(head.method.rawValue, "COPY")
        XCTAssertEqual(head.headers["Destination"], "caf\u{e9}")
    }

    func testContentLengthBody() throws {
        let run = runParser("POST /classes/A HTTP/1.1\r\nHost: h\r\nContent-Length: 5\r\n\r\nhello")
        XCTAssertNil(run.error)
        XCTAssertEqual(run.heads.first?.framing, .contentLength(5))
        XCTAssertEqual(run.merged.dropFirst(), [.body(Array("hello".utf8)), .end])
    }

    func testContentLengthZeroEndsAtOnce() {
        let run = runParser("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 0\r\n\r\n")
        XCTAssertEqual(run.events.count, 2)
        XCTAssertEqual(run.events.last, .end)
    }

    func testRepeatedIdenticalContentLengthAccepted() {
        let run = runParser("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\nContent-Length: 3, 3\r\n\r\nabc")
        XCTAssertNil(run.error)
        XCTAssertEqual(run.body, Array("abc".utf8))
    }

    func testKeepAliveRules() {
        XCTAssertEqual(runParser("GET / HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n").heads.first?.keepAlive, false)
        XCTAssertEqual(runParser("GET / HTTP/1.1\r\nHost: h\r\nConnection: Keep-Alive, Upgrade\r\n\r\n").heads.first?.keepAlive, true)
        XCTAssertEqual(runParser("GET / HTTP/1.0\r\n\r\n").heads.first?.keepAlive, false)
        XCTAssertEqual(runParser("GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n").heads.first?.keepAlive, true)
        XCTAssertEqual(runParser("GET / HTTP/1.0\r\nConnection: keep-alive, close\r\n\r\n").heads.first?.keepAlive, false)
        XCTAssertEqual(runParser("GET / HTTP/1.1\r\nHost: h\r\nConnection: upgrade\r\nConnection: CLOSE\r\n\r\n").heads.first?.keepAlive, false)
    }

    func testHTTP10WithoutHostIsAccepted() throws {
        let head = try XCTUnwrap(runParser("GET /x HTTP/1.0\r\n\r\n").heads.first)
        XCTAssertEqual(head.version, .http1_0)
    }

    func testExpectContinue() {
        let text = "PUT /f HTTP/1.1\r\nHost: h\r\nExpect: 100-Continue\r\nContent-Length: 2\r\n\r\n"
        var parser = HTTPRequestParser(limits: Limits())
        var events: [ParseEvent] = []
        let bytes = Array(text.utf8)
        let consumed = bytes.withUnsafeBytes { try? parser.consume($0, into: &events) }
        XCTAssertEqual(consumed, bytes.count)
        XCTAssertEqual(events.count, 1, "the body is not started before the server answers the expectation")
        guard case .head(let head)? = events.first else { return XCTFail("no head") }
        XCTAssertTrue(head.expectsContinue)
        XCTAssertEqual(runParser("PUT / HTTP/1.0\r\nExpect: 100-continue\r\n\r\n").heads.first?.expectsContinue, false)
        XCTAssertEqual(runParser("PUT / HTTP/1.1\r\nHost: h\r\nExpect: something\r\n\r\n").heads.first?.expectsContinue, false)
    }

    func testLeadingEmptyLinesAreSkipped() {
        let run = runParser("\r\n\r\nGET / HTTP/1.1\r\nHost: h\r\n\r\n")
        XCTAssertNil(run.error)
        XCTAssertEqual(run.heads.count, 1)
    }

    func testAbsoluteFormIsNormalised() throws {
        let head = try XCTUnwrap(runParser("GET http://Example.com:8080/a/b?x=1 HTTP/1.1\r\nHost: other\r\n\r\n").heads.first)
        XCTAssertEqual(head.target, "/a/b?x=1")
        XCTAssertEqual(head.headers.values("Host"), ["Example.com:8080"])
        XCTAssertEqual(runParser("GET HTTPS://h HTTP/1.1\r\nHost: h\r\n\r\n").heads.first?.target, "/")
        XCTAssertEqual(runParser("GET http://h?q=2 HTTP/1.1\r\nHost: h\r\n\r\n").heads.first?.target, "/?q=2")
        XCTAssertEqual(runParser("GET http://h/p HTTP/1.0\r\n\r\n").heads.first?.headers["host"], "h")
    }

    func testAsteriskFormOnlyForOptions() {
        XCTAssertEqual(runParser("OPTIONS * HTTP/1.1\r\nHost: h\r\n\r\n").heads.first?.target, "*")
        assertBadRequest("GET * HTTP/1.1\r\nHost: h\r\n\r\n")
    }

    func testUTF8TargetAccepted() {
        XCTAssertEqual(runParser("GET /caf\u{e9} HTTP/1.1\r\nHost: h\r\n\r\n").heads.first?.target, "/caf\u{e9}")
    }

    func testEverySplitPointGivesTheSameEvents() {
        let text = "POST /classes/Game?limit=2 HTTP/1.1\r\nHost: example\r\nContent-Type: application/json\r\n"
            + "Content-Length: 11\r\n\r\n{\"score\":1}"
            + "PUT /x HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n4;ext=1\r\nWiki\r\n5\r\npedia\r\n0\r\nT: v\r\n\r\n"
            + "GET /health HTTP/1.1\r\nHost: h\r\n\r\n"
        let bytes = Array(text.utf8)
        let whole = runParser([bytes])
        XCTAssertNil(whole.error)
        XCTAssertEqual(whole.heads.count, 3)
        for split in 1..<bytes.count {
            let run = runParser([Array(bytes[..<split]), Array(bytes[split...])])
            XCTAssertNil(run.error, "split at \(split)")
            XCTAssertEqual(run.merged, whole.merged, "split at \(split)")
            XCTAssertEqual(run.leftover, 0)
        }
        // And one byte at a time.
        let trickle = runParser(bytes.map { [$0] })
        XCTAssertEqual(trickle.merged, whole.merged)
    }

    func testThreePipelinedRequestsInOneBuffer() throws {
        let text = "GET /a HTTP/1.1\r\nHost: h\r\n\r\nPOST /b HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\n\r\nxyzGET /c HTTP/1.1\r\nHost: h\r\n\r\n"
        var parser = HTTPRequestParser(limits: Limits())
        let bytes = Array(text.utf8)
        var offset = 0
        var calls: [[ParseEvent]] = []
        while offset < bytes.count {
            var events: [ParseEvent] = []
            let consumed = try bytes[offset...].withUnsafeBytes { try parser.consume($0, into: &events) }
            XCTAssertGreaterThan(consumed, 0)
            offset += consumed
            calls.append(events)
        }
        XCTAssertEqual(calls.count, 4, "each call hands out at most one head, and stops after each end")
        XCTAssertEqual(calls[1].count, 1)
        XCTAssertEqual(calls[2], [.body(Array("xyz".utf8)), .end])
        let run = runParser(text)
        XCTAssertEqual(run.heads.map(\.target), ["/a", "/b", "/c"])
        XCTAssertTrue(parser.isIdle)
    }

    func testIncompleteHeadConsumesNothing() {
        var parser = HTTPRequestParser(limits: Limits())
        var events: [ParseEvent] = []
        let bytes = Array("GET / HTTP/1.1\r\nHost: h\r\n".utf8)
        let consumed = bytes.withUnsafeBytes { try? parser.consume($0, into: &events) }
        XCTAssertEqual(consumed, 0)
        XCTAssertTrue(events.isEmpty)
        XCTAssertFalse(parser.isIdle)
    }

    func testBodyLimitFromRoute() {
        let text = "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 10\r\n\r\n0123456789"
        XCTAssertEqual(runParser(text, bodyLimit: 9).error, .payloadTooLarge)
        XCTAssertNil(runParser(text, bodyLimit: 10).error)
        // A route may raise the limit above the server default.
        XCTAssertNil(runParser(text, limits: Limits(maxBodyBytes: 4), bodyLimit: 100).error)
        XCTAssertEqual(runParser(text, limits: Limits(maxBodyBytes: 4)).error, .payloadTooLarge)
    }

    func testErrorLeavesParserFailed() {
        var parser = HTTPRequestParser(limits: Limits())
        var events: [ParseEvent] = []
        let bad = Array("GET / HTTP/1.1\nHost: h\r\n\r\n".utf8)
        XCTAssertThrowsError(try bad.withUnsafeBytes { try parser.consume($0, into: &events) })
        let good = Array("GET / HTTP/1.1\r\nHost: h\r\n\r\n".utf8)
        XCTAssertThrowsError(try good.withUnsafeBytes { try parser.consume($0, into: &events) })
    }
}
