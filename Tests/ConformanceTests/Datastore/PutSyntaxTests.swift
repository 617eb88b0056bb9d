import Foundation
import XCTest
import Core

/// DS-107 … DS-127: put_delta syntax errors (400, nothing stored, rev unchanged).
final class DatastorePutSyntaxTests: DatastoreTestCase {
    private var handle = ""

    override func setUpWithError() throws {
        try super.setUpWithError()
        handle = try ds.create()
        try ds.put(handle, rev: 0, "[[\"I\",\"t\",\"r0\",{\"l\":[\"a\"]}]]")
    }

    /// Puts `changes` at rev 1 and asserts a 400 (optionally naming a change) with nothing stored.
    private func refused(_ changes: String, naming index: Int? = nil, file: StaticString = #filePath, line: UInt = #line) throws {
        let r = try ds.put(handle, rev: 1, changes)
        assertError(r, 400, contains: index.map { "change \($0)" }, file: file, line: line)
        XCTAssertEqual(try rev(handle), 1, file: file, line: line)
    }

    /// Puts `changes` at the current rev and asserts it was stored.
    private func accepted(_ changes: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let current = try rev(handle) ?? -1
        XCTAssertEqual(try ds.put(handle, rev: Int(current), changes).text, "{\"rev\":\(current + 1)}", changes,
                       file: file, line: line)
    }

    /// An insert of a fresh record holding `value` in field `v`.
    private func insert(_ value: String, _ rid: String = "x") -> String { "[[\"I\",\"t\",\"\(rid)\",{\"v\":\(value)}]]" }

    func test_DS_107_malformed_json() throws { try refused("[[\"I\",\"t\",\"r1\",{]") }

    func test_DS_108_missing_or_wrong_parameters() throws {
        try refused("{\"a\":1}")
        assertError(try ds.call("put_delta", [("handle", handle), ("rev", "1")]), 400)
        assertError(try ds.call("put_delta", [("rev", "1"), ("changes", "[]")]), 400)
        assertError(try ds.call("put_delta", [("handle", handle), ("changes", "[]")]), 400)
        XCTAssertEqual(try rev(handle), 1)
    }

    func test_DS_109_unknown_change_type() throws { try refused("[[\"X\",\"t\",\"r1\",{}]]", naming: 0) }

    func test_DS_110_arity_names_the_change() throws {
        try refused("[[\"I\",\"t\",\"r1\",{}],[\"D\",\"t\",\"r1\",\"extra\"]]", naming: 1)
        XCTAssertEqual(try ds.snapshot(handle)["rows"]?.arrayValue?.count, 1)
    }

    func test_DS_111_missing_fields_or_not_object() throws {
        try refused("[[\"I\",\"t\",\"r1\"]]")
        try refused("[[\"U\",\"t\",\"r0\",[]]]")
    }

    func test_DS_112_table_ids() throws {
        for tid in ["", ":", "a b", "t'", "x;DROP TABLE", String(repeating: "t", count: 65)] {
            try refused("[[\"I\",\"\(tid)\",\"r\",{}]]", naming: 0)
        }
        try accepted("[[\"I\",\":reserved\",\"r\",{}]]")
    }

    func test_DS_113_record_ids() throws {
        try refused("[[\"I\",\"t\",\"\(String(repeating: "r", count: 65))\",{}]]")
        let rid = String(repeating: "aZ9_-/.+=", count: 8).prefix(64)
        try accepted("[[\"I\",\"t\",\"\(rid)\",{}]]")
    }

    func test_DS_114_field_names() throws {
        try refused("[[\"I\",\"t\",\"x\",{\"a\\u0000\":1}]]")
        try refused("[[\"I\",\"t\",\"x\",{\"é\":1}]]")
    }

    func test_DS_115_null_values() throws {
        try refused(insert("null"))
        try refused(insert("[\"a\",null]"))
    }

    func test_DS_116_nested_list() throws { try refused(insert("[\"a\",[\"b\"]]")) }

    func test_DS_117_int64_grammar() throws {
        for v in ["{\"I\":\"01\"}", "{\"I\":\"-0\"}", "{\"I\":\"9223372036854775808\"}", "{\"I\":5}", "{\"I\":\"1.5\"}"] {
            try refused(insert(v))
        }
        try accepted(insert("{\"I\":\"-9223372036854775808\"}"))
    }

    func test_DS_118_special_doubles() throws {
        try refused(insert("{\"N\":\"inf\"}"))
        try refused(insert("{\"N\":\"NaN\"}"))
        try accepted(insert("{\"N\":\"+inf\"}"))
    }

    func test_DS_119_timestamps() throws {
        try refused(insert("{\"T\":\"abc\"}"))
        try refused(insert("{\"T\":1400000000000}"))
        try accepted(insert("{\"T\":\"-1\"}"))
    }

    func test_DS_120_bytes() throws {
        for v in ["{\"B\":\"AA==\"}", "{\"B\":\"A\"}", "{\"B\":\"a+b/\"}"] { try refused(insert(v)) }
        try accepted(insert("{\"B\":\"\"}"))
    }

    func test_DS_121_wrapper_shapes() throws {
        for v in ["{\"X\":\"1\"}", "{\"I\":\"1\",\"T\":\"2\"}", "{}"] { try refused(insert(v)) }
    }

    func test_DS_122_plain_numbers() throws {
        try refused(insert("1e999"))
        try accepted("[[\"I\",\"t\",\"n1\",{\"a\":-0,\"b\":1e308,\"c\":0.1}]]")
        let text = try ds.snapshot(handle).text
        XCTAssertTrue(text.contains("{\"a\":-0,\"b\":1e308,\"c\":0.1}"), text)
    }

    func test_DS_123_duplicate_keys() throws { try refused(insert("{\"a\":{\"I\":\"1\"},\"a\":{\"I\":\"2\"}}")) ; try refused("[[\"I\",\"t\",\"x\",{\"a\":{\"I\":\"1\"},\"a\":{\"I\":\"2\"}}]]") }

    func test_DS_124_surrogates() throws {
        try refused(insert("\"\\ud800\""))
        try accepted(insert("\"\\ud83d\\ude00\""))
    }

    func test_DS_125_field_op_shapes() throws {
        for op in ["[\"Q\"]", "[\"P\"]", "[\"P\",1,2]", "[\"LP\",0]", "[\"LI\",\"0\",\"a\"]", "[\"LD\",1.0]", "[\"LM\",0]",
                   "[\"LI\",-1,\"a\"]"] {
            try refused("[[\"U\",\"t\",\"r0\",{\"l\":\(op)}]]", naming: 0)
        }
    }

    func test_DS_126_list_as_atom() throws { try refused("[[\"U\",\"t\",\"r0\",{\"l\":[\"LI\",0,[\"a\"]]}]]") }

    func test_DS_127_deep_nesting() throws {
        let deep = String(repeating: "{\"I\":", count: 40) + "\"1\"" + String(repeating: "}", count: 40)
        try refused(insert(deep))
    }
}
