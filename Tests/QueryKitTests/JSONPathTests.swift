import XCTest
import Core
import QueryKit

/// Paths into documents: parsing the dotted forms, looking values up, the array rule, the name rule.
final class JSONPathTests: XCTestCase {
    func testDottedForms() {
        XCTAssertEqual(JSONPath(dotted: "a.b.c")?.segments, ["a", "b", "c"])
        XCTAssertEqual(JSONPath(dotted: "a")?.segments, ["a"])
        for bad in ["", ".", "a.", ".a", "a..b"] { XCTAssertNil(JSONPath(dotted: bad), bad) }
        // Without escapes a backslash is an ordinary character.
        XCTAssertEqual(JSONPath(dotted: #"a\.b"#)?.segments, [#"a\"#, "b"])
        XCTAssertEqual(JSONPath(dotted: #"a\.b.c"#, escapes: true)?.segments, ["a.b", "c"])
        XCTAssertEqual(JSONPath(dotted: #"a\\.b"#, escapes: true)?.segments, [#"a\"#, "b"])
        XCTAssertNil(JSONPath(dotted: #"a\"#, escapes: true))
        XCTAssertNil(JSONPath(dotted: #"a.\"#, escapes: true))
        XCTAssertEqual(JSONPath(["x", "y"]).dotted, "x.y")
        XCTAssertEqual(JSONPath(["x"]).appending("y"), JSONPath(["x", "y"]))
        XCTAssertEqual(JSONPath(["x", "y"]).first, "x")
        XCTAssertEqual(JSONPath(["x", "y"]).count, 2)
    }

    func testLookup() throws {
        let doc = try XCTUnwrap(try JSONParser.parse(#"{"a":{"b":{"c":3}},"list":[{"b":1}],"s":"x","n":null}"#).objectValue)
        XCTAssertEqual(JSONPath(["a", "b", "c"]).value(in: doc), 3)
        XCTAssertEqual(JSONPath(["a", "b", "c"]).value(in: .object(doc)), 3)
        XCTAssertEqual(JSONPath(["n"]).value(in: doc), .null)
        XCTAssertNil(JSONPath(["a", "x"]).value(in: doc))
        // Strings and arrays have no members: array elements are not searched by a plain lookup.
        XCTAssertNil(JSONPath(["s", "length"]).value(in: doc))
        XCTAssertNil(JSONPath(["list", "b"]).value(in: doc))
        XCTAssertNil(JSONPath(["missing"]).value(in: doc))
    }

    func testArrayRule() throws {
        let doc = try XCTUnwrap(try JSONParser.parse(#"{"tags":["a","b"],"name":"a","n":1}"#).objectValue)
        let isA: (JSON) -> Bool = { $0 == "a" }
        XCTAssertTrue(JSONPath(["tags"]).anyValue(in: doc, satisfies: isA))
        XCTAssertTrue(JSONPath(["name"]).anyValue(in: doc, satisfies: isA))
        XCTAssertFalse(JSONPath(["n"]).anyValue(in: doc, satisfies: isA))
        XCTAssertFalse(JSONPath(["missing"]).anyValue(in: doc, satisfies: isA))
        // The whole array is tried first.
        XCTAssertTrue(JSONPath(["tags"]).anyValue(in: doc) { $0.arrayValue?.count == 2 })
    }

    func testIdentifierRule() {
        for good in ["a", "Ab_9", "z0"] { XCTAssertTrue(JSONPath.isIdentifier(good), good) }
        for bad in ["", "_a", "9a", "a-b", "a.b", "é", "a b"] { XCTAssertFalse(JSONPath.isIdentifier(bad), bad) }
        XCTAssertTrue(JSONPath.isASCIILetter(UInt8(ascii: "q")))
        XCTAssertFalse(JSONPath.isASCIILetter(UInt8(ascii: "_")))
    }
}
