import Core
import XCTest
@testable import HTTP

final class ResponseSerializationTests: XCTestCase {
    private func serialize(_ response: HTTPResponse, chunked: Bool = false, keepAlive: Bool = true,
                           http10: Bool = false, requestID: String? = "rid") -> String {
        var out: [UInt8] = []
        let code = response.status.code
        ResponseHeadWriter.write(into: &out, status: response.status, headers: response.headers,
                                 date: Array("Date: X\r\n".utf8), server: Array("Server: Quartet\r\n".utf8),
                                 requestID: requestID, body: response.body, chunked: chunked,
                                 omitLength: code < 200 || code == 204 || code == 304, keepAlive: keepAlive,
                                 http10: http10)
        return String(decoding: out, as: UTF8.self)
    }

    func testJSONResponseHead() {
        let text = serialize(.json(.created, "{\"a\":1}"))
        XCTAssertEqual(text, "HTTP/1.1 201 Created\r\nDate: X\r\nContent-Type: application/json; charset=utf-8\r\n"
                       + "Server: Quartet\r\nX-Request-Id: rid\r\nContent-Length: 7\r\n\r\n")
    }

    func testStatusLinesWithStandardAndCustomPhrases() {
        let cases: [(HTTPStatus, String)] = [
            (.ok, "HTTP/1.1 200 OK\r\n"), (.created, "HTTP/1.1 201 Created\r\n"),
            (HTTPStatus(code: 200, reasonPhrase: "Fine"), "HTTP/1.1 200 Fine\r\n"),
            (HTTPStatus(code: 201, reasonPhrase: "Made\r\nX: y"), "HTTP/1.1 201 Made  X: y\r\n"),
            (HTTPStatus(code: 404), "HTTP/1.1 404 Not Found\r\n"), (HTTPStatus(code: 599), "HTTP/1.1 599 Unknown\r\n"),
        ]
        for (status, line) in cases {
            let text = serialize(HTTPResponse(status: status, headers: HTTPHeaders(), body: .empty))
            XCTAssertTrue(text.hasPrefix(line + "Date: X\r\n"), text)
        }
    }

    func testDecimalsOfEveryLength() {
        for value in [0, 7, 9, 10, 15, 99, 100, 204, 999, 1000, 4096, 65_536, 1_000_000_007, Int.max, -1, -250, Int.min] {
            var out: [UInt8] = []
            ResponseHeadWriter.appendDecimal(value, to: &out)
            // Int.min is written as -Int.max: its magnitude has no Int.
            XCTAssertEqual(String(decoding: out, as: UTF8.self), value == Int.min ? "-\(Int.max)" : String(value))
        }
    }

    func testServerOwnsFramingHeadersAndStripsLineBreaks() {
        var headers = HTTPHeaders()
        headers.add("Content-Length", "999")
        headers.add("Connection", "keep-alive")
        headers.add("X-Echo", "a\r\nInjected: yes")
        // Short values are stored inline in the String; they are cleaned the same way.
        headers.add("X-Short", "x\ny\u{0}z")
        let text = serialize(HTTPResponse(status: .ok, headers: headers, body: .bytes([1, 2])), keepAlive: false)
        XCTAssertFalse(text.contains("999"))
        XCTAssertTrue(text.contains("X-Echo: a  Injected: yes\r\n"))
        XCTAssertTrue(text.contains("X-Short: x y z\r\n"))
        XCTAssertTrue(text.contains("Content-Length: 2\r\n"))
        XCTAssertTrue(text.hasSuffix("Connection: close\r\n\r\n"))
    }

    func testChunkedAndBodylessStatuses() {
        XCTAssertTrue(serialize(HTTPResponse(body: .stream { _ in }), chunked: true)
            .contains("Transfer-Encoding: chunked\r\n"))
        let noContent = serialize(HTTPResponse(status: .noContent))
        XCTAssertFalse(noContent.contains("Content-Length"))
        XCTAssertTrue(serialize(HTTPResponse(status: .ok)).contains("Content-Length: 0\r\n"))
        XCTAssertTrue(serialize(.text(.ok, "x"), http10: true).contains("Connection: keep-alive\r\n"))
    }

    func testHandlerRequestIDAndServerOverrideWin() {
        var headers = HTTPHeaders()
        headers.add("X-Request-Id", "mine")
        headers.add("Server", "CouchDB/3.3.3 (Erlang OTP/25)")
        let text = serialize(HTTPResponse(headers: headers))
        XCTAssertTrue(text.contains("X-Request-Id: mine\r\n"))
        XCTAssertFalse(text.contains("rid"))
        XCTAssertTrue(text.contains("Server: CouchDB/3.3.3 (Erlang OTP/25)\r\n"))
        XCTAssertFalse(text.contains("Server: Quartet"))
    }

    func testDecimalAndDateFormatting() {
        var out: [UInt8] = []
        for value in [0, 7, 10, 1234567890, Int.max] {
            out.removeAll()
            ResponseHeadWriter.appendDecimal(value, to: &out)
            XCTAssertEqual(String(decoding: out, as: UTF8.self), String(value))
        }
        XCTAssertEqual(HTTPDate.format(epochSeconds: 784_111_777), "Sun, 06 Nov 1994 08:49:37 GMT")
    }

    func testPlainErrorEscapesJSON() {
        let response = HTTPResponse.plainError(.badRequest, "bad \"quote\"\n")
        guard case .bytes(let bytes) = response.body else { return XCTFail("no body") }
        XCTAssertEqual(String(decoding: bytes, as: UTF8.self), "{\"error\":\"bad \\\"quote\\\"\\n\"}")
        XCTAssertEqual(response.headers["Content-Type"], "application/json; charset=utf-8")
    }

    /// Backspace and form feed keep their `\u00XX` form in these bodies (the APIs' own bodies name them).
    func testPlainErrorEscapesEveryControlCharacter() {
        let response = HTTPResponse.plainError(.badRequest, "\u{8}\u{C}\t\u{1}/é")
        guard case .bytes(let bytes) = response.body else { return XCTFail("no body") }
        XCTAssertEqual(String(decoding: bytes, as: UTF8.self), #"{"error":"\u0008\u000c\t\u0001/é"}"#)
    }

    func testRequestIDSanitising() {
        XCTAssertEqual(RequestIDSource.sanitize("abc-DEF_1.2:3"), "abc-DEF_1.2:3")
        XCTAssertNil(RequestIDSource.sanitize("has space"))
        XCTAssertNil(RequestIDSource.sanitize(String(repeating: "a", count: 129)))
        XCTAssertNil(RequestIDSource.sanitize(""))
        let source = RequestIDSource()
        XCTAssertNotEqual(source.next(), source.next())
        XCTAssertEqual(source.id(for: "client-id"), "client-id")
        XCTAssertNotEqual(source.id(for: "bad id"), "bad id")
    }

    func testGeneratedRequestIDsArePrefixAndHexCounter() throws {
        let source = RequestIDSource()
        let ids = (0..<300).map { _ in source.next() }
        let prefix = try XCTUnwrap(ids.first?.split(separator: "-").first)
        for (offset, id) in ids.enumerated() {
            let parts = id.split(separator: "-")
            XCTAssertEqual(parts.count, 2, id)
            XCTAssertEqual(parts.first, prefix)
            XCTAssertEqual(parts.last.flatMap { UInt64($0, radix: 16) }, UInt64(offset + 1), id)
            XCTAssertEqual(parts.last.map(String.init), String(offset + 1, radix: 16))
        }
        // A fixed-width prefix of eight hex digits, so ids stay within 15 bytes for a long time.
        XCTAssertEqual(prefix.utf8.count, 8)
        XCTAssertNotNil(UInt32(prefix, radix: 16))
        XCTAssertTrue(ids.allSatisfy { $0.utf8.count <= 15 })
    }

    func testPlainAndEncodedTargetsSplit() throws {
        let plain = try HTTPRequest(method: .get, target: "/parse/classes/Recipe")
        XCTAssertEqual(plain.path, "/parse/classes/Recipe")
        XCTAssertEqual(plain.rawPath, "/parse/classes/Recipe")
        XCTAssertEqual(plain.query, "")
        let encoded = try HTTPRequest(method: .get, target: "/a%20b/c?x=1&y=a+b")
        XCTAssertEqual(encoded.path, "/a b/c")
        XCTAssertEqual(encoded.rawPath, "/a%20b/c")
        XCTAssertEqual(encoded.query, "x=1&y=a+b")
        XCTAssertEqual(encoded.queryParameters.first("y"), "a b")
        XCTAssertThrowsError(try HTTPRequest(method: .get, target: "/bad%zz"))
        XCTAssertThrowsError(try HTTPRequest(method: .get, target: ""))
    }

    /// The word-at-a-time test must find CR, LF and NUL at every position, and nothing in clean text.
    func testControlBytesFoundAtEveryOffset() {
        for length in 0..<40 {
            let clean = Array(repeating: UInt8(ascii: "a"), count: length)
            XCTAssertFalse(clean.withUnsafeBufferPointer { ResponseHeadWriter.hasControlBelow14($0) })
            for position in 0..<length {
                for bad: UInt8 in [0, 10, 13, 9, 1] {
                    var bytes = clean
                    bytes[position] = bad
                    XCTAssertTrue(bytes.withUnsafeBufferPointer { ResponseHeadWriter.hasControlBelow14($0) })
                }
                for fine: UInt8 in [14, 32, 0x7F, 0x80, 0xFF] {
                    var bytes = clean
                    bytes[position] = fine
                    XCTAssertFalse(bytes.withUnsafeBufferPointer { ResponseHeadWriter.hasControlBelow14($0) })
                }
            }
        }
        var out: [UInt8] = []
        ResponseHeadWriter.appendSanitized("a\tlong value with\r\nInjected: 1 and \u{0} nul", to: &out)
        XCTAssertEqual(String(decoding: out, as: UTF8.self), "a\tlong value with  Injected: 1 and   nul")
    }
}
