import XCTest
@testable import Core

final class JSONSerializerTests: XCTestCase {
    func testEscapingRules() {
        let value: JSON = .string("q\" b\\ s/ \u{8}\u{C}\n\r\t \u{0}\u{1F}\u{7F} é 😀 \u{2028}")
        XCTAssertEqual(value.serialized(), "\"q\\\" b\\\\ s/ \\b\\f\\n\\r\\t \\u0000\\u001f\u{7F} é 😀 \u{2028}\"")
    }

    func testNonASCIIWrittenAsRawUTF8() {
        XCTAssertEqual(JSON.string("é").serializedBytes(), [0x22, 0xC3, 0xA9, 0x22])
    }

    func testCompactContainers() {
        XCTAssertEqual(JSON.array([]).serialized(), "[]")
        XCTAssertEqual(JSON.object(JSONObject()).serialized(), "{}")
        let value: JSON = [1, [2, [3]], ["a": ["b": nil]]]
        XCTAssertEqual(value.serialized(), #"[1,[2,[3]],{"a":{"b":null}}]"#)
    }

    func testSortedKeysByScalarOrderAtEveryLevel() {
        let value: JSON = ["b": 1, "a": ["z": 1, "y": 2], "é": 0, "Z": 0, "😀": 0, "\u{FFFD}": 0]
        XCTAssertEqual(value.serialized(sortedKeys: true),
                       "{\"Z\":0,\"a\":{\"y\":2,\"z\":1},\"b\":1,\"é\":0,\"\u{FFFD}\":0,\"😀\":0}")
        XCTAssertEqual(value.serialized(), "{\"b\":1,\"a\":{\"z\":1,\"y\":2},\"é\":0,\"Z\":0,\"😀\":0,\"\u{FFFD}\":0}")
    }

    func testRoundTripOfEveryControlCharacter() throws {
        let text = String(String.UnicodeScalarView((0..<0x20).compactMap(Unicode.Scalar.init)))
        let serialized = JSON.string(text).serialized()
        XCTAssertEqual(try JSONParser.parse(serialized), .string(text))
    }

    func testLargeDocumentRoundTrip() throws {
        var array: [JSON] = []
        for i in 0..<2000 {
            array.append(["id": .int(i), "name": .string("item \(i) ✓"), "score": .double(Double(i) / 7)])
        }
        let value = JSON.array(array)
        let bytes = value.serializedBytes()
        XCTAssertEqual(try JSONParser.parse(bytes), value)
        XCTAssertEqual(try JSONParser.parse(bytes).serializedBytes(), bytes)
    }

    /// The word-at-a-time escape test: every byte value at every offset must be judged as the byte-wise
    /// rule judges it, and quoting must match the serializer's own output.
    func testNeedsEscapeAtEveryOffset() {
        for length in 1..<20 {
            for position in 0..<length {
                for value in 0...255 {
                    var bytes = Array(repeating: UInt8(ascii: "k"), count: length)
                    bytes[position] = UInt8(value)
                    let expected = value < 0x20 || value == 0x22 || value == 0x5C
                    XCTAssertEqual(bytes.withUnsafeBufferPointer { JSON.needsEscape($0) }, expected, "\(value) at \(position)")
                }
            }
        }
        for text in ["", "Ab3dE5gH9k", "2024-05-01T10:00:00.000Z", "tab\there", "quote\"in", "back\\slash", "é日本"] {
            var out: [UInt8] = []
            Array(text.utf8).withUnsafeBufferPointer { JSON.appendQuoted(utf8: $0, to: &out) }
            XCTAssertEqual(String(decoding: out, as: UTF8.self), JSON.string(text).serialized(), text)
        }
    }
}
