import XCTest
@testable import Core

/// `maxValues` and `maxStringBytes` refuse a text while it is parsed, before the memory its values would
/// take is spent (issue 19: a 20 MB `[0,0,…]` body took about 0.5 GB before it was refused).
final class JSONParserLimitsTests: XCTestCase {
    private func options(values: Int = .max, stringBytes: Int = .max) -> JSONParseOptions {
        var o = JSONParseOptions()
        o.maxValues = values
        o.maxStringBytes = stringBytes
        return o
    }

    private func error(_ text: String, _ options: JSONParseOptions) -> JSONError? {
        do {
            _ = try JSONParser.parse(text, options: options)
            return nil
        } catch {
            return error
        }
    }

    func testValuesAreCountedWithTheirContainers() throws {
        // The array and its three elements; an object and its one member value; a lone scalar.
        XCTAssertEqual(try JSONParser.parse("[0,1,2]", options: options(values: 4)), [0, 1, 2])
        XCTAssertEqual(error("[0,1,2]", options(values: 3)), .tooManyValues(limit: 3))
        XCTAssertEqual(try JSONParser.parse(#"{"a":[]}"#, options: options(values: 2)), ["a": []])
        XCTAssertEqual(error(#"{"a":[],"b":1}"#, options(values: 2)), .tooManyValues(limit: 2))
        XCTAssertEqual(try JSONParser.parse("7", options: options(values: 1)), 7)
        XCTAssertEqual(error(#"[{"a":{"b":[true,null]}}]"#, options(values: 5)), .tooManyValues(limit: 5))
    }

    func testTooManyValuesIsRefusedBeforeTheEndOfTheText() {
        // The text is cut off after a million zeros: a parser that built every value first would report the
        // missing bracket; this one stops at value 1,001 and never reads the rest.
        let text = "{\"a\":[" + String(repeating: "0,", count: 1_000_000)
        XCTAssertEqual(error(text, options(values: 1000)), .tooManyValues(limit: 1000))
        XCTAssertEqual(error(text, options()), .syntax(offset: text.utf8.count, message: "unexpected end of input, expected a value"))
    }

    func testStringLengthIsCheckedForKeysAndValuesWithAndWithoutEscapes() throws {
        let o = options(stringBytes: 4)
        XCTAssertEqual(try JSONParser.parse(#"{"abcd":"wxyz"}"#, options: o), ["abcd": "wxyz"])
        XCTAssertEqual(error(#"{"abcde":1}"#, o), .stringTooLong(limit: 4))
        XCTAssertEqual(error(#"["vwxyz"]"#, o), .stringTooLong(limit: 4))
        // Measured on the text as sent: `\n` is two bytes, `\u00e9` six.
        XCTAssertEqual(try JSONParser.parse(#"["a\nb"]"#, options: o), ["a\nb"])
        XCTAssertEqual(error(#"["\u00e9"]"#, o), .stringTooLong(limit: 4))
        XCTAssertEqual(error(#"["ab\nc"]"#, o), .stringTooLong(limit: 4))
    }

    func testDefaultsAreUnlimitedAndRequestLimitsApplyTheConfiguredValues() {
        let plain = JSONParseOptions()
        XCTAssertEqual(plain.maxValues, .max)
        XCTAssertEqual(plain.maxStringBytes, .max)
        var request = JSONParseOptions()
        JSONRequestLimits.apply(to: &request)
        XCTAssertEqual(request.maxValues, JSONRequestLimits.maxValues)
        XCTAssertEqual(request.maxStringBytes, JSONRequestLimits.maxStringBytes)
        XCTAssertEqual(JSONRequestLimits.maxValues, JSONRequestLimits.defaultMaxValues)
        XCTAssertEqual(JSONRequestLimits.maxStringBytes, JSONRequestLimits.defaultMaxStringBytes)
    }

    /// What one parsed value costs, the figure `maxValues` turns into a memory bound. A `String` payload
    /// leaves the enum no spare bits for its case tag, so 16 bytes of payload take 17, and 24 in an array:
    /// a million values take 24 MB in their arrays. Growing past that is a regression of every body's size.
    func testAParsedValueTakesAtMostTwentyFourBytes() {
        XCTAssertLessThanOrEqual(JSONRequestLimits.bytesPerValue, 24)
    }

    func testErrorsDescribeTheLimit() {
        XCTAssertEqual(JSONError.tooManyValues(limit: 5).description, "invalid JSON: more than 5 values")
        XCTAssertEqual(JSONError.stringTooLong(limit: 9).description, "invalid JSON: a string longer than 9 bytes")
    }
}
