import XCTest
@testable import HTTP

/// Every malformed or ambiguous head the parser must refuse.
final class HTTPRequestParserRejectionTests: XCTestCase {
    func testRequestLine() {
        assertBadRequest("GET /\r\nHost: h\r\n\r\n")                          // no version
        assertBadRequest("GET  / HTTP/1.1\r\nHost: h\r\n\r\n")                // double space
        assertBadRequest("GET / HTTP/1.1 \r\nHost: h\r\n\r\n")                // trailing space
        assertBadRequest(" GET / HTTP/1.1\r\nHost: h\r\n\r\n")                // leading space
        assertBadRequest("GET / http/1.1\r\nHost: h\r\n\r\n")                 // version is case-sensitive
        assertBadRequest("GET / HTTP/2.0\r\nHost: h\r\n\r\n")
        assertBadRequest("GET / HTTP/1.2\r\nHost: h\r\n\r\n")
        assertBadRequest("GET / HTTP/1.10\r\nHost: h\r\n\r\n")
        assertBadRequest("GET\r\n\r\n")
    }

    func testInvalidMethodToken() {
        assertBadRequest("G(T / HTTP/1.1\r\nHost: h\r\n\r\n")
        assertBadRequest("GE\u{1}T / HTTP/1.1\r\nHost: h\r\n\r\n")
        assertBadRequest("GÉT / HTTP/1.1\r\nHost: h\r\n\r\n")
    }

    func testInvalidTargets() {
        assertBadRequest("GET foo HTTP/1.1\r\nHost: h\r\n\r\n")
        assertBadRequest("GET ftp://h/x HTTP/1.1\r\nHost: h\r\n\r\n")
        assertBadRequest("GET http:///x HTTP/1.1\r\nHost: h\r\n\r\n")
        assertBadRequest("GET http://user@h/x HTTP/1.1\r\nHost: h\r\n\r\n")
        assertBadRequest("CONNECT h:443 HTTP/1.1\r\nHost: h\r\n\r\n")
        assertBadRequest("GET /a\u{7F}b HTTP/1.1\r\nHost: h\r\n\r\n")
        assertBadRequest("GET /a\tb HTTP/1.1\r\nHost: h\r\n\r\n")
        let invalidUTF8: [UInt8] = Array("GET /".utf8) + [0xC3, 0x28] + Array(" HTTP/1.1\r\nHost: h\r\n\r\n".utf8)
        guard case .badRequest? = runParser([invalidUTF8]).error else { return XCTFail("invalid UTF-8 target accepted") }
    }

    /// The target is checked eight bytes at a time: a control byte or DEL is refused at every offset of
    /// long and short targets, and non-ASCII bytes in any word are still checked as UTF-8.
    func testTargetBytesCheckedAtEveryOffset() {
        for length in 1..<40 {
            for position in 0..<length {
                for bad: UInt8 in [0x00, 0x01, 0x09, 0x0D, 0x1F, 0x7F] {
                    var target = [UInt8](repeating: UInt8(ascii: "a"), count: length)
                    target[position] = bad
                    let bytes = Array("GET /".utf8) + target + Array(" HTTP/1.1\r\nHost: h\r\n\r\n".utf8)
                    guard case .badRequest? = runParser([bytes]).error else {
                        return XCTFail("byte \(bad) at \(position) of \(length) accepted")
                    }
                }
                var valid = [UInt8](repeating: UInt8(ascii: "b"), count: length)
                valid[position] = 0xC3
                valid.insert(0xA9, at: position + 1)
                let good = Array("GET /".utf8) + valid + Array(" HTTP/1.1\r\nHost: h\r\n\r\n".utf8)
                XCTAssertEqual(runParser([good]).heads.first?.target, "/" + String(decoding: valid, as: UTF8.self))
                var invalid = [UInt8](repeating: UInt8(ascii: "b"), count: length)
                invalid[position] = 0xFF
                let refused = Array("GET /".utf8) + invalid + Array(" HTTP/1.1\r\nHost: h\r\n\r\n".utf8)
                guard case .badRequest? = runParser([refused]).error else {
                    return XCTFail("invalid UTF-8 at \(position) of \(length) accepted")
                }
            }
        }
    }

    func testNulAnywhereInHead() {
        assertBadRequest("GET /\0 HTTP/1.1\r\nHost: h\r\n\r\n")
        assertBadRequest("GET / HTTP/1.1\r\nHost: h\0\r\n\r\n")
        assertBadRequest("GET / HTTP/1.1\r\nX\0: v\r\nHost: h\r\n\r\n")
        assertBadRequest("GET / HTTP/1.1\0\r\nHost: h\r\n\r\n")
        assertBadRequest("\0GET / HTTP/1.1\r\nHost: h\r\n\r\n")
    }

    func testBareLineFeedAndBareCarriageReturn() {
        assertBadRequest("GET / HTTP/1.1\nHost: h\r\n\r\n")
        assertBadRequest("GET / HTTP/1.1\r\nHost: h\n\r\n")
        assertBadRequest("GET / HTTP/1.1\r\nHost: h\r\n\n")
        assertBadRequest("\nGET / HTTP/1.1\r\nHost: h\r\n\r\n")
        assertBadRequest("GET / HTTP/1.1\r\nHost: h\rX: y\r\n\r\n")
        assertBadRequest("GET / HTTP/1.1\r\nHost: h\r\nX: a\rb\r\n\r\n")
        assertBadRequest("GET /\r HTTP/1.1\r\nHost: h\r\n\r\n")
        assertBadRequest("GET / HTTP/1.1\r\r\nHost: h\r\n\r\n")
    }

    func testHeaderNameRules() {
        assertBadRequest("GET / HTTP/1.1\r\nHost : h\r\n\r\n")               // space before colon
        assertBadRequest("GET / HTTP/1.1\r\nHost\t: h\r\n\r\n")              // tab before colon
        assertBadRequest("GET / HTTP/1.1\r\nHost: h\r\nNo-Colon\r\n\r\n")
        assertBadRequest("GET / HTTP/1.1\r\nHost: h\r\n: empty-name\r\n\r\n")
        assertBadRequest("GET / HTTP/1.1\r\nHost: h\r\nBad(Name): v\r\n\r\n")
        assertBadRequest("GET / HTTP/1.1\r\nHost: h\r\nX\u{e9}: v\r\n\r\n")
    }

    func testObsFold() {
        assertBadRequest("GET / HTTP/1.1\r\nHost: h\r\nX-Long: a\r\n b\r\n\r\n")
        assertBadRequest("GET / HTTP/1.1\r\nHost: h\r\nX-Long: a\r\n\tb\r\n\r\n")
        assertBadRequest("GET / HTTP/1.1\r\n Host: h\r\n\r\n")
    }

    func testControlBytesInValues() {
        assertBadRequest("GET / HTTP/1.1\r\nHost: h\r\nX: a\u{1}b\r\n\r\n")
        assertBadRequest("GET / HTTP/1.1\r\nHost: h\r\nX: a\u{7F}\r\n\r\n")
    }

    func testHostRules() {
        assertBadRequest("GET / HTTP/1.1\r\n\r\n")
        assertBadRequest("GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n")
        assertBadRequest("GET / HTTP/1.0\r\nHost: a\r\nHost: a\r\n\r\n")
    }

    func testContentLengthSmugglingForms() {
        assertBadRequest("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\nabcd")
        assertBadRequest("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 3, 4\r\n\r\nabcd")
        assertBadRequest("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: -1\r\n\r\n")
        assertBadRequest("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: +3\r\n\r\nabc")
        assertBadRequest("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 0x10\r\n\r\n")
        assertBadRequest("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 1 2\r\n\r\n")
        assertBadRequest("POST / HTTP/1.1\r\nHost: h\r\nContent-Length:\r\n\r\n")
        assertBadRequest("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 99999999999999999999\r\n\r\n")
    }

    func testTransferEncodingSmugglingForms() {
        assertBadRequest("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n")
        assertBadRequest("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\nContent-Length: 4\r\n\r\n0\r\n\r\n")
        assertBadRequest("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked, identity\r\n\r\n0\r\n\r\n")
        assertBadRequest("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: gzip\r\n\r\n")
        assertBadRequest("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n")
        assertBadRequest("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n")
        assertBadRequest("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: identity\r\n\r\n")
        assertBadRequest("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding:\r\n\r\n")
        assertBadRequest("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: xchunked\r\n\r\n")
        assertBadRequest("POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n")
        assertBadRequest("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding : chunked\r\n\r\n0\r\n\r\n")
    }

    func testTransferEncodingChunkedIsCaseInsensitive() {
        let run = runParser("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: Chunked\r\n\r\n0\r\n\r\n")
        XCTAssertNil(run.error)
        XCTAssertEqual(run.heads.first?.framing, .chunked)
    }
}
