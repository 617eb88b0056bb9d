import XCTest
import Core
@testable import BackbeamAPI

/// Commands, typing rules and the stored-member renderings.
final class ModelUnitTests: XCTestCase {
    func testCommandsGroupByFieldInArrivalOrder() throws {
        let params = BackbeamParameters([("key", ["k"]), ("incr-n", ["2"]), ("set-name#t", ["x"]), ("add-tags", ["a", "b"]),
                                         ("set-n", ["1"]), ("del-old", ["-"]), ("5", ["incr-n"])])
        let set = try CommandParser.parse(params, entity: "place")
        XCTAssertEqual(set.fields.map(\.field), ["n", "name", "tags", "old"])
        XCTAssertEqual(set.commands(for: "n")?.set, "1")
        XCTAssertEqual(set.commands(for: "n")?.incr, "2")
        XCTAssertEqual(set.commands(for: "name")?.suffix, .text)
        XCTAssertEqual(set.commands(for: "tags")?.add, ["a", "b"])
        XCTAssertEqual(set.commands(for: "old")?.del, true)
        for bad in ["set-", "set-a b", "set-this", "set-updated_at", "set-login_fb_id", "set-x#zz"] {
            XCTAssertThrowsError(try CommandParser.parse(BackbeamParameters(scalars: [(bad, "1")]), entity: "place"), bad)
        }
        XCTAssertThrowsError(try CommandParser.parse(BackbeamParameters(scalars: [("set-version", "5")]), entity: "file"))
        XCTAssertNoThrow(try CommandParser.parse(BackbeamParameters(scalars: [("set-version", "5")]), entity: "place"))
    }

    /// `#j`-looking values are parsed once, by the parser, with the values of all of them counted against
    /// the request limit; text that is not JSON stays text.
    func testJSONValuesAreReadOnceUnderTheRequestValueLimit() throws {
        let set = try CommandParser.parse(BackbeamParameters(scalars: [("set-a", "[1,{\"b\":2}]"), ("set-c", "[x"),
                                                                        ("set-d", "plain")]), entity: "place")
        XCTAssertEqual(set.commands(for: "a")?.setJSON, .array([.int(1), .object(JSONObject([("b", .int(2))]))]))
        XCTAssertNil(set.commands(for: "c")?.setJSON)
        XCTAssertNil(set.commands(for: "d")?.setJSON)
        XCTAssertEqual(CommandParser.valueCount(set.commands(for: "a")?.setJSON ?? .null), 4)
        // Two arrays of 600,000 zeros: each fits the default million values, together they do not.
        let zeros = "[" + String(repeating: "0,", count: 599_999) + "0]"
        XCTAssertNoThrow(try CommandParser.parse(BackbeamParameters(scalars: [("set-a", zeros)]), entity: "place"))
        XCTAssertThrowsError(try CommandParser.parse(BackbeamParameters(scalars: [("set-a", zeros), ("set-b#j", zeros)]),
                                                     entity: "place")) { error in
            XCTAssertEqual((error as? BackbeamError)?.httpStatus, 413)
            XCTAssertEqual((error as? BackbeamError)?.status, .requestTooLarge)
        }
    }

    func testInferenceOrder() throws {
        let existing: (String) -> String? = { $0 == "uDiuuGIMMQ4O" ? "user" : nil }
        func infer(_ v: String) throws -> FieldType { try FieldTyping.infer(v, entityOfObject: existing).type }
        XCTAssertEqual(try infer("41.6,-0.8,0|Zaragoza"), .location)
        XCTAssertEqual(try infer("2014-05-01"), .day)
        XCTAssertEqual(try infer("uDiuuGIMMQ4O"), .reference)
        XCTAssertEqual(try infer("{\"a\":1}"), .json)
        XCTAssertEqual(try infer("[1,2]"), .json)
        XCTAssertEqual(try infer("-3.25e2"), .number)
        XCTAssertEqual(try infer("007"), .text)
        XCTAssertEqual(try infer("1234567890123456"), .text, "16 significant digits would not round-trip")
        XCTAssertEqual(try infer("hello"), .text)
        XCTAssertEqual(try infer("{bad"), .text)
        XCTAssertEqual(try infer("a|b"), .text)
    }

    func testReferenceMembersRoundTrip() {
        var refs: [UInt8] = []
        for (name, id, entity) in [("author", "abc", "user"), ("city-x", "Z_9", "city")] {
            if !refs.isEmpty { refs.append(UInt8(ascii: ",")) }
            let n = Array(name.utf8), i = Array(id.utf8), e = Array(entity.utf8)
            n.withUnsafeBufferPointer { nb in i.withUnsafeBufferPointer { ib in e.withUnsafeBufferPointer { eb in
                ReferenceMembers.appendUnjoined(name: nb, id: ib, entity: eb, to: &refs)
            } } }
        }
        let members = ReferenceMembers.members(refs)
        XCTAssertEqual(members.map(\.name), ["author", "city-x"])
        XCTAssertEqual(members.map(\.id), ["abc", "Z_9"])
        var out: [UInt8] = []
        var first = true
        ReferenceMembers.render(refs, joined: ["city-x"], into: &out, first: &first)
        XCTAssertEqual(String(decoding: out, as: UTF8.self),
                       "\"author#r\":{\"id\":\"abc\",\"type\":\"user\"},\"city-x#r\":\"Z_9\"")
    }

    /// The byte renderer answers exactly what the core's ObjectEncoder/ResponseBodies build for the same
    /// object (the stored members are written with ObjectEncoder.encodeValue).
    func testByteRenderingMatchesTheObjectEncoder() throws {
        let fields: [(name: String, value: WireFieldValue)] = [
            ("name", .value(.text, "Bar \"Pepe\"")), ("price", .value(.number, "3.50")), ("ok", .value(.boolean, "1")),
            ("loc", .value(.location, "41.648823,-0.889085,0|Zgz")), ("meta", .value(.json, "{\"a\":[1,2]}")),
        ]
        var data = JSONObject()
        var catalogue: [String: FieldInfo] = [:]
        for (i, field) in fields.enumerated() {
            guard case .value(let type, let text) = field.value else { continue }
            data["f\(i + 1)"] = try FieldTyping.storedValue(text, type: type, field: field.name)
            catalogue[field.name] = FieldInfo(id: Int64(i + 1), name: field.name, type: type)
        }
        var refs: [UInt8] = []
        Array("author".utf8).withUnsafeBufferPointer { n in Array("u1".utf8).withUnsafeBufferPointer { i in
            Array("user".utf8).withUnsafeBufferPointer { e in ReferenceMembers.appendUnjoined(name: n, id: i, entity: e, to: &refs) } } }
        let record = ObjectRecord(seq: 1, id: "o1", entity: "place", createdAt: 5, updatedAt: 6,
                                  vals: StoredMembers.values(data, fields: catalogue), refs: refs)
        let object = ResponseObject(record: record, toMany: [JoinedToMany(field: "tags", result: ["t1"], count: 4)])
        let wire = WireObject(id: "o1", entity: "place", createdAt: 5, updatedAt: 6,
                              fields: fields + [("author", .toOne(id: "u1", entity: "user", joined: false)),
                                                ("tags", .toMany(result: ["t1"], count: 4))])
        var expected = WireObjects()
        expected.add(wire)
        XCTAssertEqual(try JSONParser.parse(PageBodies.list(ObjectPage(ids: ["o1"], count: 1, objects: [object]))),
                       .object(ResponseBodies.list(objects: expected, ids: ["o1"], count: 1)))
        XCTAssertEqual(try JSONParser.parse(PageBodies.object(id: "o1", objects: [object], auth: "a")),
                       .object(ResponseBodies.object(id: "o1", objects: expected, auth: "a")))
    }
}

final class ObjectBytesIntTests: XCTestCase {
    func testIntegersAsJSON() {
        for value: Int64 in [0, 7, 10, 99, 1368520407344, -1, -42, Int64.max, Int64.min] {
            var out: [UInt8] = []
            ObjectBytes.appendInt(value, to: &out)
            XCTAssertEqual(String(decoding: out, as: UTF8.self), String(value))
            // After other bytes, which stay as they were.
            var after = Array("x:".utf8)
            ObjectBytes.appendInt(value, to: &after)
            XCTAssertEqual(String(decoding: after, as: UTF8.self), "x:" + String(value))
        }
    }

    /// The keys a streamed page wrote: each reported new once, in the short list and past it.
    func testWrittenKeysReportEachKeyOnce() {
        var written = WrittenKeys()
        for key in Int64(0)..<200 {
            XCTAssertTrue(written.insert(key).inserted, "\(key)")
            XCTAssertFalse(written.insert(key).inserted, "\(key)")
            XCTAssertFalse(written.insert(key / 2).inserted, "\(key / 2)")
        }
        XCTAssertTrue(written.insert(-1).inserted)
        XCTAssertFalse(written.insert(63).inserted)
    }
}
