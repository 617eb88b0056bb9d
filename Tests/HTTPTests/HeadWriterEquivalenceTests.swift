import XCTest
@testable import HTTP

/// The measured one-piece head writer against the piecewise one, and the one-pass target split against the
/// way targets were split before, on generated inputs (deterministic, so a failure repeats).
final class HeadWriterEquivalenceTests: XCTestCase {
    private struct Generator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
        mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }
    }

    private static let names = ["Content-Type", "content-length", "Content-Length", "Transfer-Encoding",
                                "TRANSFER-ENCODING", "Connection", "connection", "Server", "server", "X-Request-Id",
                                "x-request-id", "ETag", "Cache-Control", "X-A", "Set-Cookie", "Servers",
                                "Connections", "X-Long-Header-Name-Of-Some-Length", "Ünïcode", "Bad\r\nName", "N\u{0}"]
    private static let values = ["", "x", "close", "Keep-Alive, CLOSE", "keep-alive", "application/json; charset=utf-8",
                                 "\"etag-value\"", "a\r\nInjected: yes", "x\ny\u{0}z", "ünïcode välue", "\r", "\n\n",
                                 String(repeating: "v", count: 15), String(repeating: "w", count: 16),
                                 String(repeating: "long value ", count: 200) + "\r\n"]

    private func randomHeaders(_ g: inout Generator) -> HTTPHeaders {
        var headers = HTTPHeaders()
        for _ in 0..<g.below(12) { headers.add(g.pick(Self.names), g.pick(Self.values)) }
        return headers
    }

    func testOnePieceWriterWritesWhatThePiecewiseWriterWrites() {
        var g = Generator(state: 42)
        let statuses: [HTTPStatus] = [.ok, .created, .notModified, .noContent, .partialContent,
                                      HTTPStatus(code: 200, reasonPhrase: "Fine"), HTTPStatus(code: 599),
                                      HTTPStatus(code: 201, reasonPhrase: "Made\r\nX: y"), HTTPStatus(code: 100),
                                      HTTPStatus(code: 404, reasonPhrase: "")]
        let bodies: [ResponseBody] = [.empty, .bytes([1, 2, 3]), .bytes(Array(repeating: 7, count: 12_345)),
                                      .file(path: "/x", offset: 0, length: 1_000_000_007), .stream { _ in }]
        for round in 0..<3_000 {
            let status = g.pick(statuses)
            let headers = randomHeaders(&g)
            let body = g.pick(bodies)
            let chunked = g.below(4) == 0
            let omitLength = g.below(3) == 0
            let keepAlive = g.below(3) != 0
            let http10 = g.below(4) == 0
            let requestID = g.pick([nil, "", "rid-1", "a\r\nb", String(repeating: "r", count: 40)])
            let date = g.pick([Array("Date: Fri, 27 Nov 2026 12:00:00 GMT\r\n".utf8), []])
            let server = g.pick([Array("Server: Quartet\r\n".utf8), []])
            let closing = g.below(2) == 0
            // The piecewise writer gets the keep-alive the one-piece writer decides (it honours `Connection:
            // close` itself only when asked to).
            let expectedKeepAlive = keepAlive && !(closing && ResponseHeadWriter.asksToClose(headers))
            var prefix: [UInt8] = g.below(2) == 0 ? [] : Array("earlier output".utf8)
            var expected = prefix
            ResponseHeadWriter.writePiecewise(into: &expected, status: status, headers: headers, date: date,
                                              server: server, requestID: requestID, body: body, chunked: chunked,
                                              omitLength: omitLength, keepAlive: expectedKeepAlive, http10: http10)
            let written = ResponseHeadWriter.write(into: &prefix, status: status, headers: headers, date: date,
                                                   server: server, requestID: requestID, body: body,
                                                   chunked: chunked, omitLength: omitLength, keepAlive: keepAlive,
                                                   http10: http10, closingWhenAsked: closing)
            XCTAssertEqual(written, expectedKeepAlive, "round \(round)")
            XCTAssertEqual(prefix, expected, "round \(round): \(String(decoding: expected, as: UTF8.self))")
        }
    }

    func testHeadCursorNeverWritesPastItsCapacity() {
        var storage = [UInt8](repeating: 0xAA, count: 16)
        storage.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return XCTFail("no storage") }
            var cursor = HeadCursor(base: base, capacity: 8)
            cursor.write("12345")
            cursor.writeDecimal(678)
            XCTAssertFalse(cursor.overflowed)
            cursor.write(byte: 0x39)
            XCTAssertTrue(cursor.overflowed)
            cursor.writeSanitized("more text")
            cursor.writeDecimal(Int.min)
            XCTAssertEqual(cursor.count, 8)
        }
        XCTAssertEqual(Array(storage[0..<8]), Array("12345678".utf8))
        XCTAssertEqual(Array(storage[8...]), [UInt8](repeating: 0xAA, count: 8))
    }

    func testDecimalDigitsMatchTheWrittenDecimals() {
        for value in [0, 9, 10, 99, 100, 12_345, 1_000_000_007, Int.max, -1, -10, Int.min] {
            var out: [UInt8] = []
            ResponseHeadWriter.appendDecimal(value, to: &out)
            XCTAssertEqual(HeadCursor.decimalDigits(value), out.count, "\(value)")
        }
    }

    // MARK: - Target split

    /// How targets were split before the one-pass scan (kept as the reference the scan must agree with).
    private func referenceSplit(_ target: String, decodingPath: Bool, parsingQuery: Bool) throws(HTTPError)
        -> RequestTarget.Parts {
        let plain: Bool = {
            var utf8 = target.utf8.makeIterator()
            guard utf8.next() == UInt8(ascii: "/") else { return false }
            while let byte = utf8.next() {
                if byte == UInt8(ascii: "?") || byte == UInt8(ascii: "%") { return false }
            }
            return true
        }()
        if plain { return RequestTarget.Parts(rawPath: target, path: target, query: "", parameters: FormParameters()) }
        var rest = Substring(target)
        if !rest.hasPrefix("/"), let scheme = rest.range(of: "://") {
            let afterAuthority = rest[scheme.upperBound...]
            if let slash = afterAuthority.firstIndex(where: { $0 == "/" || $0 == "?" }) {
                rest = afterAuthority[slash...]
            } else {
                rest = "/"
            }
        }
        let rawPath: Substring
        let query: Substring
        if let mark = rest.utf8.firstIndex(of: UInt8(ascii: "?")) {
            rawPath = rest[..<mark]
            query = rest[rest.utf8.index(after: mark)...]
        } else {
            rawPath = rest
            query = ""
        }
        if rawPath.isEmpty && target != "*" { throw .badRequest("empty path") }
        guard let decoded = decodingPath ? PercentDecoding.decodePath(rawPath) : String(rawPath) else {
            throw .badRequest("invalid percent-encoding in path")
        }
        var parameters = FormParameters()
        if !query.isEmpty {
            do {
                if parsingQuery {
                    parameters = try FormParameters.parse(query, plusIsSpace: true)
                } else {
                    try FormParameters.validate(query, plusIsSpace: true)
                }
            } catch {
                throw .badRequest("invalid query string")
            }
        }
        return RequestTarget.Parts(rawPath: String(rawPath), path: decoded, query: String(query), parameters: parameters)
    }

    private func outcome(_ split: () throws(HTTPError) -> RequestTarget.Parts) -> String {
        do {
            let parts = try split()
            let pairs = parts.parameters.map { "\($0.name)=\($0.value)" }.joined(separator: "&")
            return "raw[\(parts.rawPath)] path[\(parts.path)] query[\(parts.query)] params[\(pairs)]"
        } catch {
            return "error \(error)"
        }
    }

    func testOnePassSplitAgreesWithTheReference() {
        let pieces = ["/", "a", "b/", "%20", "%2F", "%zz", "%", "%0", "%00", "\u{0}", "?", "&", "=", "+", "x=1", "é",
                      "%C3%A9", "%FF", "//", "*", "http://h", "https://host:8", "://", "#", " ", "ü?ü=ü"]
        var targets = ["", "*", "/", "/?", "/a?", "?x", "/a\u{0}b", "/a\u{0}b?x=1", "/a%00b", "http://host",
                       "http://host/p?q=1", "/data/file/download/abc/1?width=200&height=200",
                       "/couch/bench/doc000123", "/a%20b/c?x=1&y=a+b"]
        var g = Generator(state: 7)
        for _ in 0..<4_000 {
            var target = g.below(5) == 0 ? "" : "/"
            for _ in 0..<g.below(7) { target += g.pick(pieces) }
            targets.append(target)
        }
        for target in targets {
            for (decodingPath, parsingQuery) in [(true, true), (true, false), (false, true), (false, false)] {
                let expected = outcome { () throws(HTTPError) in
                    try referenceSplit(target, decodingPath: decodingPath, parsingQuery: parsingQuery)
                }
                let actual = outcome { () throws(HTTPError) in
                    try RequestTarget.split(target, decodingPath: decodingPath, parsingQuery: parsingQuery)
                }
                XCTAssertEqual(actual, expected, "\(target.debugDescription) \(decodingPath) \(parsingQuery)")
            }
        }
    }

    func testRawPathOfATarget() {
        XCTAssertEqual(Connection.rawPath(of: "/a/b?x=1?y"), "/a/b")
        XCTAssertEqual(Connection.rawPath(of: "/a/b"), "/a/b")
        XCTAssertEqual(Connection.rawPath(of: "?"), "")
        XCTAssertEqual(Connection.rawPath(of: ""), "")
        XCTAssertEqual(Connection.rawPath(of: "/é/ü?ö"), "/é/ü")
        let long = "/" + String(repeating: "segment/", count: 40)
        XCTAssertEqual(Connection.rawPath(of: long + "?q"), long)
    }
}
