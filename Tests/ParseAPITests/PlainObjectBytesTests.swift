import XCTest
import Core
@testable import ParseAPI

/// Objects written from their stored text must be byte for byte what parsing and rendering them gives.
final class PlainObjectBytesTests: XCTestCase {
    private func stored(_ data: String, acl: String? = nil) -> StoredText {
        // What the writer stores is the serializer's own text.
        let canonical = (try? JSONParser.parse(data).serialized()) ?? data
        return StoredText(className: "Probe", objectId: "Ab3dE5gH9k", data: Array(canonical.utf8),
                          acl: acl.map { Array($0.utf8) },
                          createdAt: "2024-05-01T10:00:00.000Z", updatedAt: "2024-05-02T11:30:00.123Z")
    }

    private func slow(_ text: StoredText, schema: ClassSchema? = nil) throws -> [UInt8] {
        let renderer = ObjectRenderer(serverURL: "http://h/parse", appId: "app", schema: schema)
        return JSON.object(renderer.render(try text.decoded())).serializedBytes()
    }

    func testPlainObjectsMatchTheFullRenderingByteForByte() throws {
        let cases = [
            "{}",
            #"{"name":"Omelette","servings":2,"price":9.5,"isAvailable":true,"nothing":null}"#,
            #"{"big":12345678901234567890,"exp":1.5e-7,"neg":-0.0,"int":-42}"#,
            #"{"text":"quote \" backslash \\ tab \t newline \n nul \u0000 bell \u0007 é 日本 😀 </script>"}"#,
            #"{"list":[1,"two",[3,[4]],{"five":5},null,true],"empty":[],"obj":{}}"#,
            #"{"when":{"__type":"Date","iso":"2023-11-14T22:13:20.123Z"},"where":{"__type":"GeoPoint","latitude":1.5,"longitude":-2}}"#,
            #"{"owner":{"__type":"Pointer","className":"_User","objectId":"u1"},"raw":{"__type":"Bytes","base64":"AAE="}}"#,
            #"{"nested":{"_private":1,"__type":"Custom","deep":{"_x":[{"_y":2}]}}}"#,
            #"{"ingredients":[{"name":"Egg","quantity":2},{"name":"Salt","quantity":0.5}],"side":["Toast","Salad"]}"#,
            #"{"looksLikeFile":"\"__type\":\"File\"","under_score":1,"a_":2}"#,
            #"{"a":"ends in a backslash \\","b":"{\"_x\":1}","c":["[{\"_y\"}]"]}"#,
        ]
        for data in cases {
            for acl in [nil, #"{"*":{"read":true},"u1":{"read":true,"write":true},"role:admins":{"write":true}}"#] {
                let text = stored(data, acl: acl.map { (try? JSONParser.parse($0).serialized()) ?? $0 })
                let fast = try XCTUnwrap(PlainObjectBytes.render(text), data)
                XCTAssertEqual(String(decoding: fast, as: UTF8.self), String(decoding: try slow(text), as: UTF8.self), data)
            }
        }
    }

    func testObjectsThatRenderingChangesAreLeftToIt() throws {
        for data in [
            #"{"_hidden":1,"name":"x"}"#,
            #"{"name":"x","_rperm":["*"]}"#,
            #"{"a":"x\\","_b":1}"#,
            #"{"photo":{"__type":"File","name":"abc_photo.jpg"}}"#,
            #"{"album":[{"cover":{"__type":"File","name":"c.png"}}]}"#,
        ] {
            XCTAssertNil(PlainObjectBytes.render(stored(data)), data)
        }
        XCTAssertNil(PlainObjectBytes.render(StoredText(className: "Probe", objectId: "x", data: Array("[1]".utf8), acl: nil,
                                                        createdAt: "", updatedAt: "")))
    }

    /// The string scan skips eight bytes at a time: quotes and escapes at every offset within and across
    /// words must be found exactly as a byte-wise scan finds them.
    func testClosingQuoteAtEveryOffsetMatchesAByteWiseScan() {
        func byteWise(_ bytes: [UInt8], from start: Int) -> Int {
            var i = start
            while i < bytes.count {
                if bytes[i] == UInt8(ascii: "\"") { return i }
                i += bytes[i] == UInt8(ascii: "\\") ? 2 : 1
            }
            return bytes.count
        }
        let pieces = ["a", "\\\"", "\\\\", "\"", "\u{1}", "é", "\u{7F}", "\u{FF}", "xxxxxxx"]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            var text = ""
            for _ in 0..<Int.random(in: 0...24, using: &generator) { text += pieces.randomElement(using: &generator) ?? "" }
            let bytes = Array(text.utf8)
            for start in 0...bytes.count {
                let fast = bytes.withUnsafeBufferPointer { buffer -> Int in
                    guard let base = buffer.baseAddress else { return start }
                    return PlainObjectBytes.closingQuote(base, from: start, count: buffer.count)
                }
                XCTAssertEqual(fast, byteWise(bytes, from: start), "\(text) from \(start)")
            }
        }
        for length in 0..<24 {
            for position in 0..<length {
                var bytes = Array(repeating: UInt8(ascii: "a"), count: length)
                bytes[position] = UInt8(ascii: "_")
                XCTAssertTrue(bytes.withUnsafeBufferPointer { PlainObjectBytes.containsUnderscore($0.baseAddress!, count: length) })
                bytes[position] = UInt8(ascii: "_") ^ 0x80
                XCTAssertFalse(bytes.withUnsafeBufferPointer { PlainObjectBytes.containsUnderscore($0.baseAddress!, count: length) })
            }
        }
        // Members starting with `_` and file values are still seen after long strings.
        let long = String(repeating: "abcdefgh", count: 9)
        XCTAssertNil(PlainObjectBytes.render(stored(#"{"a":"\#(long)","_b":1}"#)))
        XCTAssertNil(PlainObjectBytes.render(stored(#"{"a":"\#(long)\\","f":{"__type":"File","name":"x.png"}}"#)))
        XCTAssertNotNil(PlainObjectBytes.render(stored(#"{"a":"\#(long)\",_b:1"}"#)))
    }

    func testIdsAndTimestampsThatNeedEscapesAreEscaped() throws {
        let text = StoredText(className: "Probe", objectId: "a\"b\\c", data: Array(#"{"n":1}"#.utf8), acl: nil,
                              createdAt: "t\u{1}", updatedAt: "u")
        let fast = try XCTUnwrap(PlainObjectBytes.render(text))
        XCTAssertEqual(String(decoding: fast, as: UTF8.self),
                       #"{"objectId":"a\"b\\c","n":1,"createdAt":"t\u0001","updatedAt":"u"}"#)
        XCTAssertEqual(try JSONParser.parse(fast), ["objectId": "a\"b\\c", "n": 1, "createdAt": "t\u{1}", "updatedAt": "u"])
    }

    func testRelationFieldsKeepTheFullRendering() {
        var schema = ClassSchema(className: "Probe")
        schema.fields.append(("title", FieldDefinition(type: .string)))
        XCTAssertTrue(ObjectRenderer.addsNoFields(schema))
        XCTAssertTrue(ObjectRenderer.addsNoFields(nil))
        schema.fields.append(("likes", FieldDefinition(type: .relation("_User"))))
        XCTAssertFalse(ObjectRenderer.addsNoFields(schema))
    }
}

final class SerializedReplyTests: XCTestCase {
    func testASerializedAnswerReadsBackAsItsValue() {
        let reply = ParseReply.ok(serialized: Array(#"{"results":[{"objectId":"a","n":1}],"count":1}"#.utf8))
        XCTAssertEqual(reply.jsonBody, ["results": [["objectId": "a", "n": 1]], "count": 1])
        XCTAssertEqual(ParseReply.ok(["x": true]).jsonBody, ["x": true])
    }
}
