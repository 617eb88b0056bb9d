import Foundation
import XCTest
import Core

/// DS-128 … DS-141: put_delta precondition failures (400 naming the change, nothing stored) and list ops.
final class DatastorePutSemanticTests: DatastoreTestCase {
    private var handle = ""

    override func setUpWithError() throws {
        try super.setUpWithError()
        handle = try ds.create()
        try ds.put(handle, rev: 0, "[[\"I\",\"t\",\"r\",{\"l\":[\"a\",\"b\",\"c\"],\"s\":\"str\",\"e\":[]}]]")
    }

    private func refused(_ changes: String, naming index: Int, file: StaticString = #filePath, line: UInt = #line) throws {
        let before = try ds.snapshot(handle).text
        let r = try ds.put(handle, rev: 1, changes)
        assertError(r, 400, contains: "change \(index)", file: file, line: line)
        XCTAssertEqual(try ds.snapshot(handle).text, before, file: file, line: line)
    }

    /// Applies one field op to `l` (or `field`) on a fresh copy of the record and returns the field afterwards.
    private func field(after op: String, field: String = "l", initial: String = "[\"a\",\"b\",\"c\"]") throws -> JSON? {
        let h = try ds.create("f\(UUID().uuidString.prefix(8).lowercased())")
        try ds.put(h, rev: 0, "[[\"I\",\"t\",\"r\",{\"\(field)\":\(initial)}]]")
        let r = try ds.put(h, rev: 1, "[[\"U\",\"t\",\"r\",{\"\(field)\":\(op)}]]")
        guard r.text == "{\"rev\":2}" else { throw DSTestError.unexpected(r.text) }
        return try ds.snapshot(h)["rows"]?[0]?["data"]?[field]
    }

    func test_DS_128_insert_existing() throws { try refused("[[\"I\",\"t\",\"r\",{}]]", naming: 0) }

    func test_DS_129_update_or_delete_missing() throws {
        try refused("[[\"U\",\"t\",\"nope\",{}]]", naming: 0)
        try refused("[[\"D\",\"t\",\"nope\"]]", naming: 0)
    }

    func test_DS_130_double_insert_in_one_delta() throws {
        try refused("[[\"I\",\"t\",\"n\",{}],[\"I\",\"t\",\"n\",{}]]", naming: 1)
    }

    func test_DS_131_later_failure_rolls_back_earlier_change() throws {
        try refused("[[\"U\",\"t\",\"r\",{\"s\":[\"P\",\"changed\"]}],[\"U\",\"t\",\"missing\",{}]]", naming: 1)
        XCTAssertEqual(try rev(handle), 1)
    }

    func test_DS_132_list_put_bounds() throws {
        try refused("[[\"U\",\"t\",\"r\",{\"l\":[\"LP\",3,\"x\"]}]]", naming: 0)
        XCTAssertEqual(try field(after: "[\"LP\",2,\"x\"]")?.serialized(), "[\"a\",\"b\",\"x\"]")
    }

    func test_DS_133_list_insert_bounds() throws {
        try refused("[[\"U\",\"t\",\"r\",{\"l\":[\"LI\",4,\"x\"]}]]", naming: 0)
        XCTAssertEqual(try field(after: "[\"LI\",3,\"x\"]")?.serialized(), "[\"a\",\"b\",\"c\",\"x\"]")
    }

    func test_DS_134_list_delete_on_empty() throws {
        try refused("[[\"U\",\"t\",\"r\",{\"e\":[\"LD\",0]}]]", naming: 0)
    }

    func test_DS_135_list_move() throws {
        try refused("[[\"U\",\"t\",\"r\",{\"l\":[\"LM\",0,3]}]]", naming: 0)
        let abcd = "[\"a\",\"b\",\"c\",\"d\"]"
        XCTAssertEqual(try field(after: "[\"LM\",0,2]", initial: abcd)?.serialized(), "[\"b\",\"c\",\"a\",\"d\"]")
        XCTAssertEqual(try field(after: "[\"LM\",3,1]", initial: abcd)?.serialized(), "[\"a\",\"d\",\"b\",\"c\"]")
    }

    func test_DS_136_list_op_on_string() throws {
        try refused("[[\"U\",\"t\",\"r\",{\"s\":[\"LI\",0,\"x\"]}]]", naming: 0)
    }

    func test_DS_137_list_create() throws {
        try refused("[[\"U\",\"t\",\"r\",{\"e\":[\"LC\"]}]]", naming: 0)
        try refused("[[\"U\",\"t\",\"r\",{\"s\":[\"LC\"]}]]", naming: 0)
        XCTAssertEqual(try ds.put(handle, rev: 1, "[[\"U\",\"t\",\"r\",{\"new\":[\"LC\"]}]]").text, "{\"rev\":2}")
        XCTAssertEqual(try ds.snapshot(handle)["rows"]?[0]?["data"]?["new"]?.serialized(), "[]")
    }

    func test_DS_138_list_insert_on_absent_field() throws {
        XCTAssertEqual(try ds.put(handle, rev: 1, "[[\"U\",\"t\",\"r\",{\"fresh\":[\"LI\",0,\"a\"]}]]").text, "{\"rev\":2}")
        XCTAssertEqual(try ds.snapshot(handle)["rows"]?[0]?["data"]?["fresh"]?.serialized(), "[\"a\"]")
        let r = try ds.put(handle, rev: 2, "[[\"U\",\"t\",\"r\",{\"other\":[\"LI\",1,\"a\"]}]]")
        assertError(r, 400, contains: "change 0")
    }

    func test_DS_139_delete_absent_field() throws {
        XCTAssertEqual(try ds.put(handle, rev: 1, "[[\"U\",\"t\",\"r\",{\"absent\":[\"D\"]}]]").text, "{\"rev\":2}")
    }

    func test_DS_140_record_without_fields_still_exists() throws {
        XCTAssertEqual(try ds.put(handle, rev: 1, "[[\"U\",\"t\",\"r\",{\"l\":[\"D\"],\"s\":[\"D\"],\"e\":[\"D\"]}]]").text,
                       "{\"rev\":2}")
        XCTAssertEqual(try ds.snapshot(handle).text, "{\"rev\":2,\"rows\":[{\"tid\":\"t\",\"rowid\":\"r\",\"data\":{}}]}")
        assertError(try ds.put(handle, rev: 2, "[[\"I\",\"t\",\"r\",{}]]"), 400, contains: "change 0")
    }

    func test_DS_141_empty_update() throws {
        XCTAssertEqual(try ds.put(handle, rev: 1, "[[\"U\",\"t\",\"r\",{}]]").text, "{\"rev\":2}")
    }
}
