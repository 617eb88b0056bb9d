import XCTest
@testable import Core

/// The writer's building blocks, as the APIs use them to build bodies member by member.
final class JSONWriterTests: XCTestCase {
    func testBodyBuiltMemberByMember() {
        var w = JSONWriter()
        w.raw("{")
        w.key("rev", first: true); w.int(Int64(-12))
        w.key("ids", first: false); w.array(["a", "b\"c"]) { w, id in w.string(id) }
        w.key("none", first: false); w.array([Int]()) { w, n in w.int(n) }
        w.key("data", first: false); w.raw(#"{"x":1.50}"#)
        w.key("value", first: false); w.value(["k": [true, nil, 2]])
        w.raw(UInt8(ascii: "}"))
        XCTAssertEqual(w.text, #"{"rev":-12,"ids":["a","b\"c"],"none":[],"data":{"x":1.50},"value":{"k":[true,null,2]}}"#)
        XCTAssertEqual(w.bytes, Array(w.text.utf8))
    }

    func testContinuingAppendsToGivenBytes() {
        var w = JSONWriter(continuing: Array("[1,".utf8))
        w.string("é\u{1}")
        w.raw("]")
        XCTAssertEqual(w.text, "[1,\"é\\u0001\"]")
    }

    func testSortKeysIsBytewiseAtEveryLevel() {
        let value: JSON = ["b": 1, "a": ["z": 1, "Z": 2], "é": 3, "e": 4]
        XCTAssertEqual(JSONWriter.serialize(value, sortKeys: true), #"{"a":{"Z":2,"z":1},"b":1,"e":4,"é":3}"#)
        XCTAssertEqual(JSONWriter.serialize(value), #"{"b":1,"a":{"z":1,"Z":2},"é":3,"e":4}"#)
        XCTAssertTrue(JSONWriter.bytewiseLess("Z", "a"))
        XCTAssertFalse(JSONWriter.bytewiseLess("é", "z"))
    }

    /// The two control-character styles differ only in backspace and form feed.
    func testControlEscapeStyles() {
        let text = "\u{8}\u{C}\n\r\t\u{0}\u{1F}\"\\/\u{7F}é"
        var named = JSONWriter()
        named.string(text)
        XCTAssertEqual(named.text, #""\b\f\n\r\t\u0000\u001f\"\\/"# + "\u{7F}é\"")
        var whitespace = JSONWriter(controlEscapes: .namedWhitespace)
        whitespace.string(text)
        XCTAssertEqual(whitespace.text, #""\u0008\u000c\n\r\t\u0000\u001f\"\\/"# + "\u{7F}é\"")
        XCTAssertEqual(JSON.string(text).serialized(), named.text)
    }
}
