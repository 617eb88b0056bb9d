import XCTest
@testable import Core

final class JSONParserInvalidTests: XCTestCase {
    private func error(_ text: String, _ options: JSONParseOptions = .init(),
                       file: StaticString = #filePath, line: UInt = #line) -> JSONError? {
        error(Array(text.utf8), options, file: file, line: line)
    }

    private func error(_ bytes: [UInt8], _ options: JSONParseOptions = .init(),
                       file: StaticString = #filePath, line: UInt = #line) -> JSONError? {
        do {
            let value = try JSONParser.parse(bytes, options: options)
            XCTFail("accepted \(value)", file: file, line: line)
            return nil
        } catch {
            return error
        }
    }

    private func assertSyntax(_ text: String, at offset: Int, file: StaticString = #filePath, line: UInt = #line) {
        guard case .syntax(let got, _)? = error(text, file: file, line: line) else {
            return XCTFail("expected a syntax error for \(text)", file: file, line: line)
        }
        XCTAssertEqual(got, offset, "offset for \(text)", file: file, line: line)
    }

    func testEmptyInput() {
        XCTAssertEqual(error(""), .emptyInput)
        XCTAssertEqual(error("  \n\t "), .emptyInput)
    }

    func testTrailingCommas() {
        assertSyntax("[1,]", at: 3)
        assertSyntax(#"{"a":1,}"#, at: 7)
        assertSyntax("[,1]", at: 1)
    }

    func testLeadingZerosAndBadNumbers() {
        assertSyntax("01", at: 1)
        assertSyntax("[-01]", at: 3)
        assertSyntax("+1", at: 0)
        assertSyntax("1.", at: 2)
        assertSyntax(".5", at: 0)
        assertSyntax("1e", at: 2)
        assertSyntax("1e+", at: 3)
        assertSyntax("-", at: 1)
        assertSyntax("[NaN]", at: 1)
        assertSyntax("Infinity", at: 0)
        assertSyntax("-Infinity", at: 1)
        assertSyntax("0x10", at: 1)
    }

    func testLiteralsAndStructure() {
        assertSyntax("tru", at: 0)
        assertSyntax("nul", at: 0)
        assertSyntax("True", at: 0)
        assertSyntax("[1 2]", at: 3)
        assertSyntax(#"{"a" 1}"#, at: 5)
        assertSyntax("{a:1}", at: 1)
        assertSyntax("{'a':1}", at: 1)
        assertSyntax("[1", at: 2)
        assertSyntax(#"{"a":1"#, at: 6)
        assertSyntax("]", at: 0)
        assertSyntax("[1]]", at: 3)
        assertSyntax("/* c */ 1", at: 0)
        assertSyntax("1 // c", at: 2)
    }

    func testTrailingGarbage() {
        assertSyntax("{} x", at: 3)
        assertSyntax("1 2", at: 2)
        assertSyntax("nullnull", at: 4)
        XCTAssertNotNil(error([0x31, 0x00]))
    }

    func testStrings() {
        assertSyntax("\"abc", at: 0)
        assertSyntax("\"a\u{1}b\"", at: 2)
        assertSyntax("\"a\nb\"", at: 2)
        assertSyntax("\"tab\there\"", at: 4)
        assertSyntax(#""\x""#, at: 1)
        assertSyntax(#""\u12""#, at: 5)
        assertSyntax(#""\u12G4""#, at: 5)
        assertSyntax(#""\"#, at: 1)
    }

    func testLoneSurrogates() {
        assertSyntax(#""\uD800""#, at: 1)
        assertSyntax(#""\uDC00""#, at: 1)
        assertSyntax(#""\uD83Dx""#, at: 1)
        assertSyntax(#""\uD83D\u0041""#, at: 1)
        assertSyntax(#""\uD83D\uD83D""#, at: 1)
    }

    func testInvalidUTF8() {
        let cases: [([UInt8], Int)] = [
            ([0x22, 0x80, 0x22], 1),                    // lone continuation byte
            ([0x22, 0x61, 0xC0, 0x80, 0x22], 2),        // overlong NUL
            ([0x22, 0xC1, 0xBF, 0x22], 1),              // overlong
            ([0x22, 0xE0, 0x80, 0xAF, 0x22], 1),        // overlong 3-byte
            ([0x22, 0xED, 0xA0, 0x80, 0x22], 1),        // encoded surrogate U+D800
            ([0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], 1),  // above U+10FFFF
            ([0x22, 0xF5, 0x80, 0x80, 0x80, 0x22], 1),
            ([0x22, 0xFF, 0x22], 1),
            ([0x22, 0xE2, 0x82, 0x22], 1),              // truncated sequence
            ([0x22, 0xC3], 1),                          // truncated at end of input
            ([0x22, 0x5C, 0x6E, 0xC3, 0x28, 0x22], 3),  // after an escape (slow path)
        ]
        for (bytes, offset) in cases {
            XCTAssertEqual(error(bytes), .invalidUTF8(offset: offset), "\(bytes)")
        }
        // Outside strings a non-ASCII byte is simply not JSON.
        guard case .syntax? = error([0xC3, 0xA9]) else { return XCTFail("expected syntax error") }
    }

    func testByteOrderMarkRejected() {
        XCTAssertEqual(error([0xEF, 0xBB, 0xBF, 0x31]), .syntax(offset: 0, message: "byte order mark is not allowed"))
    }

    func testByteOrderMarkSkippedWhenAllowed() throws {
        let options = JSONParseOptions(allowsByteOrderMark: true)
        XCTAssertEqual(try JSONParser.parse([0xEF, 0xBB, 0xBF, 0x31], options: options).int64Value, 1)
        XCTAssertEqual(error([0xEF, 0xBB, 0xBF], options), .emptyInput)
        // Only one mark, and only at the start.
        XCTAssertNotNil(error([0xEF, 0xBB, 0xBF, 0xEF, 0xBB, 0xBF, 0x31], options))
        XCTAssertNotNil(error([0x20, 0xEF, 0xBB, 0xBF, 0x31], options))
    }

    func testDepthOverLimit() {
        let arrays = String(repeating: "[", count: 65) + String(repeating: "]", count: 65)
        XCTAssertEqual(error(arrays), .tooDeep(limit: 64))
        let objects = String(repeating: "{\"a\":", count: 65) + "1" + String(repeating: "}", count: 65)
        XCTAssertEqual(error(objects), .tooDeep(limit: 64))
        XCTAssertEqual(error("[]", JSONParseOptions(maxDepth: 0)), .tooDeep(limit: 0))
        // Far deeper than any stack could recurse: refused cleanly, not a crash.
        XCTAssertEqual(error(String(repeating: "[", count: 1_000_000)), .tooDeep(limit: 64))
        let unbounded = JSONParseOptions(maxDepth: .max, maxBytes: .max)
        guard case .syntax? = error(String(repeating: "[", count: 200_000), unbounded) else {
            return XCTFail("expected unterminated array")
        }
    }

    func testTooLarge() {
        XCTAssertEqual(error("[1, 2, 3]", JSONParseOptions(maxBytes: 4)), .tooLarge(limit: 4))
    }

    func testErrorDescriptionsNameTheProblem() {
        XCTAssertEqual(JSONError.syntax(offset: 3, message: "x").description, "invalid JSON at byte 3: x")
        XCTAssertEqual(JSONError.duplicateKey("a").description, "invalid JSON: duplicate key \"a\"")
    }
}
