import XCTest
@testable import HTTP

final class HTTPRequestParserChunkedTests: XCTestCase {
    private let head = "POST /upload HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n"

    func testChunksAreJoined() {
        let run = runParser(head + "5\r\nhello\r\n1;name=value; other\r\n \r\n6\r\nworld!\r\n0\r\n\r\n")
        XCTAssertNil(run.error)
        XCTAssertEqual(run.heads.first?.framing, .chunked)
        XCTAssertEqual(String(decoding: run.body, as: UTF8.self), "hello world!")
        XCTAssertEqual(run.events.last, .end)
    }

    func testHexSizesAnyCase() {
        let data = String(repeating: "x", count: 0x1A)
        let run = runParser(head + "1a\r\n\(data)\r\n1A\r\n\(data)\r\n000\r\n\r\n")
        XCTAssertNil(run.error)
        XCTAssertEqual(run.body.count, 0x34)
    }

    func testTrailersAcceptedAndDropped() {
        let run = runParser(head + "3\r\nabc\r\n0\r\nChecksum: 1\r\nOther: 2\r\n\r\nGET / HTTP/1.1\r\nHost: h\r\n\r\n")
        XCTAssertNil(run.error)
        XCTAssertEqual(run.heads.count, 2)
        XCTAssertEqual(run.body, Array("abc".utf8))
        XCTAssertNil(run.heads.first?.headers["Checksum"])
    }

    func testSplitChunksAtEveryBoundary() {
        let bytes = Array((head + "a\r\n0123456789\r\n3;x\r\nabc\r\n0\r\nT: 1\r\n\r\n").utf8)
        let whole = runParser([bytes])
        XCTAssertNil(whole.error)
        for split in 1..<bytes.count {
            for second in split..<min(bytes.count, split + 7) {
                let run = runParser([Array(bytes[..<split]), Array(bytes[split..<second]), Array(bytes[second...])])
                XCTAssertEqual(run.merged, whole.merged, "split at \(split)/\(second)")
            }
        }
    }

    func testBadChunkSizes() {
        assertBadRequest(head + "g\r\nabc\r\n0\r\n\r\n")
        assertBadRequest(head + "\r\nabc\r\n0\r\n\r\n")
        assertBadRequest(head + " 3\r\nabc\r\n0\r\n\r\n")
        assertBadRequest(head + "-3\r\nabc\r\n0\r\n\r\n")
        assertBadRequest(head + "3x\r\nabc\r\n0\r\n\r\n")
        assertBadRequest(head + "0x3\r\nabc\r\n0\r\n\r\n")
        assertBadRequest(head + "3\nabc\r\n0\r\n\r\n")
        assertBadRequest(head + "3;a\0\r\nabc\r\n0\r\n\r\n")
    }

    func testChunkSizeOverflow() {
        assertBadRequest(head + "fffffffffffffffff\r\n")
        assertBadRequest(head + "10000000000000000\r\n")
        // Fifteen hex digits fit in Int but exceed any body limit.
        XCTAssertEqual(runParser(head + "fffffffffffffff\r\n").error, .payloadTooLarge)
    }

    func testChunkDataMustEndWithCRLF() {
        assertBadRequest(head + "3\r\nabcd\r\n0\r\n\r\n")
        assertBadRequest(head + "3\r\nabc\n0\r\n\r\n")
        assertBadRequest(head + "3\r\nabc\r0\r\n\r\n")
    }

    func testChunkLineTooLong() {
        assertBadRequest(head + "1;" + String(repeating: "e", count: 5000))
        assertBadRequest(head + "1;" + String(repeating: "e", count: 5000) + "\r\nx\r\n0\r\n\r\n")
    }

    func testBadTrailers() {
        assertBadRequest(head + "0\r\nBad Name: v\r\n\r\n")
        assertBadRequest(head + "0\r\nT: v\n\r\n")
        XCTAssertEqual(runParser(head + "0\r\nT: " + String(repeating: "v", count: 70_000) + "\r\n\r\n").error,
                       .headerFieldsTooLarge)
    }

    func testChunkedBodyLimit() {
        let body = "5\r\nhello\r\n5\r\nworld\r\n0\r\n\r\n"
        XCTAssertNil(runParser(head + body, bodyLimit: 10).error)
        XCTAssertEqual(runParser(head + body, bodyLimit: 9).error, .payloadTooLarge)
        XCTAssertEqual(runParser(head + body, limits: Limits(maxBodyBytes: 7)).error, .payloadTooLarge)
    }
}
