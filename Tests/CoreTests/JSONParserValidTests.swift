import XCTest
@testable import Core

final class JSONParserValidTests: XCTestCase {
    private func parse(_ text: String, _ options: JSONParseOptions = .init()) throws -> JSON {
        try JSONParser.parse(text, options: options)
    }

    func testScalars() throws {
        XCTAssertEqual(try parse("null"), .null)
        XCTAssertEqual(try parse("true"), .bool(true))
        XCTAssertEqual(try parse("false"), .bool(false))
        XCTAssertEqual(try parse("\"hi\""), .string("hi"))
        XCTAssertEqual(try parse("0").numberValue?.text, "0")
        XCTAssertEqual(try parse("-0").numberValue?.text, "-0")
        XCTAssertEqual(try parse(" \t\r\n 42 \n").numberValue?.text, "42")
    }

    func testContainersKeepOrderAndShape() throws {
        let value = try parse(#"{"b":1,"a":[true,null,{"x":"y"}],"c":{}}"#)
        XCTAssertEqual(value.objectValue?.keys, ["b", "a", "c"])
        XCTAssertEqual(value["a"]?[0], .bool(true))
        XCTAssertEqual(value["a"]?[1], .null)
        XCTAssertEqual(value["a"]?[2]?["x"]?.stringValue, "y")
        XCTAssertEqual(value["c"], .object(JSONObject()))
        XCTAssertNil(value["a"]?[3])
        XCTAssertNil(value["a"]?[-1])
        XCTAssertNil(value["missing"])
        XCTAssertEqual(try parse("[]"), .array([]))
        XCTAssertEqual(try parse("[ ]"), .array([]))
        XCTAssertEqual(try parse("{ }"), .object(JSONObject()))
        XCTAssertEqual(try parse("[[[]]]"), .array([.array([.array([])])]))
    }

    func testNumbersKeptVerbatim() throws {
        let literals = ["123456789012345678901234567890", "-1.5e-300", "1E+2", "0.10", "2.50e1",
                        "1e400", "-0.0", "12345678901234567890.123456789"]
        for literal in literals {
            let value = try parse("[\(literal)]")
            XCTAssertEqual(value[0]?.numberValue?.text, literal)
            XCTAssertEqual(value.serialized(), "[\(literal)]")
        }
    }

    func testEscapes() throws {
        XCTAssertEqual(try parse(#""a\"b\\c\/d\b\f\n\r\t""#).stringValue, "a\"b\\c/d\u{8}\u{C}\n\r\t")
        XCTAssertEqual(try parse(#""\u0041\u00e9\u20AC""#).stringValue, "Aé€")
        XCTAssertEqual(try parse(#""\u0000""#).stringValue, "\u{0}")
        // Surrogate pair for U+1F600.
        XCTAssertEqual(try parse(#""\uD83D\uDE00""#).stringValue, "😀")
        XCTAssertEqual(try parse(#""x\ud83d\ude00y""#).stringValue, "x😀y")
    }

    func testRawUnicode() throws {
        XCTAssertEqual(try parse("\"héllo 世界 😀\"").stringValue, "héllo 世界 😀")
        XCTAssertEqual(try parse("{\"ключ\":\"значение\"}")["ключ"]?.stringValue, "значение")
        // Largest scalar and the ones next to the surrogate range are well-formed.
        XCTAssertEqual(try JSONParser.parse([0x22, 0xF4, 0x8F, 0xBF, 0xBF, 0x22]).stringValue, "\u{10FFFF}")
        XCTAssertEqual(try JSONParser.parse([0x22, 0xED, 0x9F, 0xBF, 0x22]).stringValue, "\u{D7FF}")
        XCTAssertEqual(try JSONParser.parse([0x22, 0xEE, 0x80, 0x80, 0x22]).stringValue, "\u{E000}")
    }

    func testDepthExactlyAtLimit() throws {
        let options = JSONParseOptions(maxDepth: 64)
        let text = String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
        XCTAssertNoThrow(try parse(text, options))
        let objects = String(repeating: "{\"a\":", count: 64) + "1" + String(repeating: "}", count: 64)
        XCTAssertNoThrow(try parse(objects, options))
        XCTAssertEqual(try parse("7", JSONParseOptions(maxDepth: 0)).int64Value, 7)
    }

    func testDuplicateKeyPolicies() throws {
        let text = #"{"a":1,"b":2,"a":3}"#
        XCTAssertThrowsError(try parse(text)) { XCTAssertEqual($0 as? JSONError, .duplicateKey("a")) }
        let last = try parse(text, JSONParseOptions(duplicateKeys: .lastWins))
        XCTAssertEqual(last.objectValue?.keys, ["a", "b"])
        XCTAssertEqual(last["a"]?.int64Value, 3)
        let first = try parse(text, JSONParseOptions(duplicateKeys: .firstWins))
        XCTAssertEqual(first.objectValue?.keys, ["a", "b"])
        XCTAssertEqual(first["a"]?.int64Value, 1)
    }

    func testDuplicateKeysInLargeObjectUseIndex() throws {
        var text = "{"
        for i in 0..<200 { text += "\"k\(i)\":\(i)," }
        text += "\"k150\":0}"
        XCTAssertThrowsError(try parse(text)) { XCTAssertEqual($0 as? JSONError, .duplicateKey("k150")) }
        let value = try parse(text, JSONParseOptions(duplicateKeys: .lastWins))
        XCTAssertEqual(value.objectValue?.count, 200)
        XCTAssertEqual(value["k150"]?.int64Value, 0)
        XCTAssertEqual(value["k199"]?.int64Value, 199)
        XCTAssertEqual(value.objectValue?.keys.last, "k199")
    }

    func testKeysCompareByBytesNotCanonicalEquivalence() throws {
        // Precomposed é and e + combining acute are different JSON keys.
        let value = try parse("{\"\u{E9}\":1,\"e\u{301}\":2}")
        XCTAssertEqual(value.objectValue?.count, 2)
        XCTAssertEqual(value["\u{E9}"]?.int64Value, 1)
        XCTAssertEqual(value["e\u{301}"]?.int64Value, 2)
    }

    func testByteAndStringEntryPointsAgree() throws {
        let text = #"{"a":[1,2.5,"x"]}"#
        XCTAssertEqual(try JSONParser.parse(Array(text.utf8)), try parse(text))
        let viaBuffer = try Array(text.utf8).withUnsafeBufferPointer { try JSONParser.parse(buffer: $0) }
        XCTAssertEqual(viaBuffer, try parse(text))
    }

    func testMaxBytesBoundary() throws {
        XCTAssertNoThrow(try parse("[1,2]", JSONParseOptions(maxBytes: 5)))
        XCTAssertThrowsError(try parse("[1,2] ", JSONParseOptions(maxBytes: 5))) {
            XCTAssertEqual($0 as? JSONError, .tooLarge(limit: 5))
        }
    }

    func testRoundTripOfParsedDocument() throws {
        let text = #"{"name":"Zoë \"Z\" / 1","list":[1,-2.50,3e10,true,false,null],"nested":{"k":"\u0001\n"}}"#
        let value = try parse(text)
        let again = try parse(value.serialized())
        XCTAssertEqual(again, value)
        XCTAssertEqual(value.serialized(),
                       #"{"name":"Zoë \"Z\" / 1","list":[1,-2.50,3e10,true,false,null],"nested":{"k":"\u0001\n"}}"#)
    }
}
