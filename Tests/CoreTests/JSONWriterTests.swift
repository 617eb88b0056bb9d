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

    /// Strings are scanned eight bytes at a time between escapes: every byte that needs one is found
    /// wherever it falls in a word, next to every other kind of byte (plain ASCII, UTF-8, 0x7F, 0x20).
    func testEveryEscapeIsFoundAtEveryPositionOfTheWordScan() {
        func reference(_ s: String) -> String {
            var out: [UInt8] = [UInt8(ascii: "\"")]
            let hex = Array("0123456789abcdef".utf8)
            for byte in s.utf8 {
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"): out += [UInt8(ascii: "\\"), byte]
                case 0x0A: out += Array("\\n".utf8)
                case 0x0D: out += Array("\\r".utf8)
                case 0x09: out += Array("\\t".utf8)
                case 0x08: out += Array("\\b".utf8)
                case 0x0C: out += Array("\\f".utf8)
                case 0..<0x20: out += Array("\\u00".utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
                default: out.append(byte)
                }
            }
            return String(decoding: out + [UInt8(ascii: "\"")], as: UTF8.self)
        }
        let specials: [String] = ["\"", "\\", "\u{0}", "\u{1F}", "\n", "\u{8}"]
        let fillers: [String] = ["a", "é", " ", "\u{7F}", "!", "~", "]", "#"]
        for length in 0..<20 {
            for filler in fillers {
                for position in 0...length {
                    for special in specials {
                        var text = String(repeating: filler, count: length)
                        let index = text.index(text.startIndex, offsetBy: position)
                        text.insert(contentsOf: special, at: index)
                        var w = JSONWriter()
                        w.string(text)
                        XCTAssertEqual(w.text, reference(text), "\(length) \(filler) \(position)")
                    }
                }
                var plain = JSONWriter()
                let text = String(repeating: filler, count: length)
                plain.string(text)
                XCTAssertEqual(plain.text, reference(text))
            }
        }
        // Every byte value alone and in a word of plain bytes.
        for byte in UInt8(0)..<0x80 {
            let one = String(decoding: [byte], as: UTF8.self)
            for text in [one, "abcdefg" + one, one + "abcdefgh", "abc" + one + "defghijk"] {
                var w = JSONWriter()
                w.string(text)
                XCTAssertEqual(w.text, reference(text), "byte \(byte)")
            }
        }
    }
}
