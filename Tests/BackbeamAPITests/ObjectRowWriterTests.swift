import XCTest
import Core
@testable import BackbeamAPI

/// The row writer of streamed pages (`ObjectRowWriter` into a `ByteWriter`) writes exactly the bytes of
/// `ObjectBytes.appendMember(id:entity:...)`, which the conformance tests check on the wire.
final class ObjectRowWriterTests: XCTestCase {
    /// A sample value of every value type, stored as a write stores it.
    private static let samples: [(FieldType, String)] = [
        (.text, "Bar \"Pepe\" \\ señal\u{1}"), (.textarea, "two\nlines"), (.richText, "<b>x</b>"), (.select, "red"),
        (.number, "3.50"), (.number, "-12"), (.number, "1e3"), (.date, "1368520407344"), (.boolean, "1"),
        (.boolean, "false"), (.day, "2013-05-14"), (.json, "{\"a\":[1,2,{\"b\":null}],\"c\":\"é\"}"),
        (.location, "41.648823,-0.889085,0|Zaragoza, \"centro\""),
    ]

    private func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    /// `vals` with one field per sample (so every type suffix), in catalogue order.
    private func storedValues() throws -> [UInt8] {
        var data = JSONObject()
        var catalogue: [String: FieldInfo] = [:]
        for (i, sample) in Self.samples.enumerated() {
            data["f\(i + 1)"] = try FieldTyping.storedValue(sample.1, type: sample.0, field: "field\(i)")
            catalogue["field\(i)"] = FieldInfo(id: Int64(i + 1), name: "field\(i)", type: sample.0)
        }
        return StoredMembers.values(data, fields: catalogue)
    }

    private func storedReferences(_ members: [(String, String, String)]) -> [UInt8] {
        var refs: [UInt8] = []
        for (name, id, entity) in members {
            if !refs.isEmpty { refs.append(UInt8(ascii: ",")) }
            bytes(name).withUnsafeBufferPointer { n in bytes(id).withUnsafeBufferPointer { i in
                bytes(entity).withUnsafeBufferPointer { e in ReferenceMembers.appendUnjoined(name: n, id: i, entity: e, to: &refs) } } }
        }
        return refs
    }

    /// The old writer's bytes and the new one's for the same row parts.
    private func both(id: String, entity: String, createdAt: Int64, updatedAt: Int64, vals: [UInt8]?, refs: [UInt8]?,
                      login: [UInt8]?, joinFields: [String], joined: [Bool]) -> (old: String, new: String) {
        func withOptional<T>(_ array: [UInt8]?, _ body: (UnsafeBufferPointer<UInt8>?) -> T) -> T {
            guard let array else { return body(nil) }
            return array.withUnsafeBufferPointer { body($0) }
        }
        var mask: UInt64 = 0
        for (i, isJoined) in joined.enumerated() where isJoined { mask |= 1 << UInt64(i) }
        let joinedNames = zip(joinFields, joined).filter(\.1).map(\.0)
        var old: [UInt8] = Array("before,".utf8)
        let writer = ByteWriter(capacity: 8)   // grows many times on the way
        writer.append(Array("before,".utf8))
        bytes(id).withUnsafeBufferPointer { idBytes in bytes(entity).withUnsafeBufferPointer { entityBytes in
            withOptional(vals) { v in withOptional(refs) { r in withOptional(login) { l in
                ObjectBytes.appendMember(id: idBytes, entity: entityBytes, createdAt: createdAt, updatedAt: updatedAt,
                                         vals: v, refs: r, login: l, joined: joinedNames, to: &old)
                ObjectRowWriter.appendMember(id: idBytes, entity: entityBytes, createdAt: createdAt, updatedAt: updatedAt,
                                             vals: v, refs: r, login: l, joinedNames: joinFields.map { Array($0.utf8) },
                                             joinedMask: mask, to: writer)
            } } }
        } }
        return (String(decoding: old, as: UTF8.self), String(decoding: writer.bytes, as: UTF8.self))
    }

    func testEveryFieldTypeAndReferenceRenderingMatchesTheOldWriter() throws {
        let vals = try storedValues()
        for (type, _) in Self.samples {
            XCTAssertTrue(String(decoding: vals, as: UTF8.self).contains("#\(type.suffix)\":"), "suffix #\(type.suffix)")
        }
        let refs = storedReferences([("author", "mDWuly5NaQxO", "user"), ("city-x", "Z_9", "city"), ("au", "q1", "user")])
        let login = bytes("\"login_fb_id\":\"1234\",\"login_fb_name\":\"A \\\"B\\\"\"")
        let joinFields = ["author", "city-x", "nothere"]
        var compared = 0
        for mask in 0..<8 {
            let joined = (0..<3).map { mask & (1 << $0) != 0 }
            for (v, r, l) in [(vals, refs, login), (nil, nil, nil), ([], [], []), (vals, nil, login), (nil, refs, nil)] as
                    [([UInt8]?, [UInt8]?, [UInt8]?)] {
                for (id, entity) in [("o1AbC_-xyz12", "place"), ("we\"ird\\", "ent\u{7}ity")] {
                    for (created, updated) in [(Int64(0), Int64(9)), (1368520407344, Int64.max), (-1, Int64.min)] {
                        let (old, new) = both(id: id, entity: entity, createdAt: created, updatedAt: updated, vals: v,
                                              refs: r, login: l, joinFields: joinFields, joined: joined)
                        XCTAssertEqual(new, old, "mask \(mask) id \(id)")
                        compared += 1
                    }
                }
            }
        }
        XCTAssertEqual(compared, 8 * 5 * 2 * 3)
        // The joined rendering itself: the bare id.
        let (_, new) = both(id: "o", entity: "e", createdAt: 1, updatedAt: 2, vals: nil, refs: refs, login: nil,
                            joinFields: joinFields, joined: [true, false, false])
        XCTAssertTrue(new.contains("\"author#r\":\"mDWuly5NaQxO\",\"city-x#r\":{\"id\":\"Z_9\",\"type\":\"city\"},\"au#r\":{"), new)
    }

    /// References not of the stored shape go through the old renderer, so they still come out the same.
    func testReferencesOfAnotherShapeMatchTheOldWriter() {
        let odd: [String] = ["\"author#r\":{\"id\":\"x\"}", "\"author#r\":{\"id\":\"x\",\"type\":\"user\"}junk",
                             "\"author#r\":{\"id\":\"x\",\"type\":\"user\"},", "garbage", "\"#r\":{\"id\":\"x\",\"type\":\"u\"}",
                             "\"author#r\":{\"id\":\"x\",\"type\":\"user\"},\"b#r\":{\"id\":\"y\",\"type\":\"u\"}"]
        for text in odd {
            for joined in [[true], [false]] {
                let (old, new) = both(id: "o", entity: "e", createdAt: 1, updatedAt: 2, vals: nil, refs: bytes(text),
                                      login: nil, joinFields: ["author"], joined: joined)
                XCTAssertEqual(new, old, text)
            }
        }
    }

    func testIntegersAndGrowth() {
        let writer = ByteWriter(capacity: 1)
        var expected = ""
        for value: Int64 in [0, 7, 10, 99, 100, 1368520407344, -1, -42, -10, Int64.max, Int64.min, 999_999_999_999_999_999] {
            writer.appendInt(value)
            writer.append(",")
            expected += String(value) + ","
        }
        XCTAssertEqual(String(decoding: writer.bytes, as: UTF8.self), expected)
        // Every digit count and both ends of it, signed.
        var power: Int64 = 1
        for _ in 0..<19 {
            for value in [power - 1, power, power + 1, power * 5 + 3] {
                for signed in [value, -value] {
                    let one = ByteWriter(capacity: 0)
                    one.appendInt(signed)
                    XCTAssertEqual(String(decoding: one.bytes, as: UTF8.self), String(signed))
                }
            }
            if power <= Int64.max / 10 { power *= 10 }
        }
        writer.truncate(to: 2)
        XCTAssertEqual(writer.bytes, Array("0,".utf8))
    }
}
