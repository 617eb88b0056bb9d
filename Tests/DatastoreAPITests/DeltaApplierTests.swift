import XCTest
import Core
@testable import DatastoreAPI

/// Application of changes to a working copy: preconditions, list ops, atomicity, sizes and ACL rules.
final class DeltaApplierTests: XCTestCase {
    private let key = RecordKey(tid: "t", rid: "r")

    private func changes(_ text: String) throws -> [Change] {
        try ChangeParser.parse(try JSONParser.parse(text)).changes
    }

    /// Applies to a store holding `stored` (record `t/r`) and returns the final fields of `t/r`.
    private func apply(_ text: String, stored: String? = nil) throws -> JSONObject? {
        let storedFields: JSONObject? = try stored.map { text in
            guard case .object(let o) = try JSONParser.parse(text) else { throw ApplyError(message: "bad fixture") }
            return o
        }
        let key = self.key
        var copy = WorkingCopy { k in
            guard k == key, let f = storedFields else { return nil }
            return (f, Values.recordSize(f))
        }
        try DeltaApplier.apply(try changes(text), to: &copy)
        return copy[key]?.fields
    }

    private func list(_ op: String, on stored: String) throws -> String? {
        try apply("[[\"U\",\"t\",\"r\",{\"l\":\(op)}]]", stored: stored).flatMap { $0["l"] }.map { JSONWriter.serialize($0) }
    }

    func testMoveExamples() throws {
        XCTAssertEqual(try list("[\"LM\",0,2]", on: "{\"l\":[\"a\",\"b\",\"c\",\"d\"]}"), "[\"b\",\"c\",\"a\",\"d\"]")
        XCTAssertEqual(try list("[\"LM\",3,1]", on: "{\"l\":[\"a\",\"b\",\"c\",\"d\"]}"), "[\"a\",\"d\",\"b\",\"c\"]")
        XCTAssertThrowsError(try list("[\"LM\",0,3]", on: "{\"l\":[\"a\",\"b\",\"c\"]}"))
    }

    func testListIndexRules() throws {
        XCTAssertThrowsError(try list("[\"LP\",3,\"x\"]", on: "{\"l\":[1,2,3]}"))
        XCTAssertEqual(try list("[\"LP\",2,\"x\"]", on: "{\"l\":[1,2,3]}"), "[1,2,\"x\"]")
        XCTAssertThrowsError(try list("[\"LI\",4,\"x\"]", on: "{\"l\":[1,2,3]}"))
        XCTAssertEqual(try list("[\"LI\",3,\"x\"]", on: "{\"l\":[1,2,3]}"), "[1,2,3,\"x\"]")
        XCTAssertThrowsError(try list("[\"LD\",0]", on: "{\"l\":[]}"))
        XCTAssertThrowsError(try list("[\"LD\",0]", on: "{\"l\":\"string\"}"))
        XCTAssertThrowsError(try list("[\"LC\"]", on: "{\"l\":[]}"))
        XCTAssertEqual(try list("[\"LC\"]", on: "{}"), "[]")
        XCTAssertEqual(try list("[\"LI\",0,\"a\"]", on: "{}"), "[\"a\"]")
        XCTAssertThrowsError(try list("[\"LI\",1,\"a\"]", on: "{}"))
        XCTAssertNil(try list("[\"D\"]", on: "{}"))
    }

    func testRecordPreconditions() throws {
        XCTAssertThrowsError(try apply("[[\"I\",\"t\",\"r\",{}]]", stored: "{}"))
        XCTAssertThrowsError(try apply("[[\"U\",\"t\",\"r\",{}]]"))
        XCTAssertThrowsError(try apply("[[\"D\",\"t\",\"r\"]]"))
        XCTAssertEqual(try apply("[[\"U\",\"t\",\"r\",{\"a\":[\"D\"]}]]", stored: "{\"a\":1}"), JSONObject())
        do {
            _ = try apply("[[\"I\",\"t\",\"r\",{}],[\"I\",\"t\",\"r\",{}]]")
            XCTFail("double insert accepted")
        } catch let error as ApplyError {
            XCTAssertTrue(error.message.hasPrefix("change 1: "), error.message)
        }
    }

    func testSizeChecksOnlyRefuseGrowth() throws {
        let limits = SizeLimits(headroomPercent: 0)
        XCTAssertEqual(limits.record, 102_400)
        XCTAssertEqual(SizeLimits(headroomPercent: 10).delta, 2_306_867)
        let big = String(repeating: "x", count: 102_400 - 200)   // 100 + (100 + n) = 102,400
        var copy = WorkingCopy { _ in nil }
        try DeltaApplier.apply(try changes("[[\"I\",\"t\",\"r\",{\"s\":\"\(big)\"}]]"), to: &copy)
        let outcome = try SizeCheck.check(copy, deltaSize: 0, datastoreSize: 1000, recordCount: 0, limits: limits)
        XCTAssertEqual(outcome.datastoreSize, 1000 + 102_400)
        XCTAssertEqual(outcome.recordCount, 1)
        var over = WorkingCopy { _ in nil }
        try DeltaApplier.apply(try changes("[[\"I\",\"t\",\"r\",{\"s\":\"\(big)x\"}]]"), to: &over)
        XCTAssertThrowsError(try SizeCheck.check(over, deltaSize: 0, datastoreSize: 1000, recordCount: 0, limits: limits))
    }

    func testAclRules() throws {
        let owner: Int64 = 1
        for (text, shareable) in [("[[\"I\",\":acl\",\"u1\",{\"role\":{\"I\":\"1000\"}}]]", true),
                                  ("[[\"I\",\":acl\",\"public\",{\"role\":{\"I\":\"1000\"}}]]", false)] {
            let list = try changes(text)
            XCTAssertThrowsError(try AclRules.checkChange(index: 0, change: list[0], shareable: shareable, ownerUid: owner))
        }
        for bad in ["[[\"I\",\":acl\",\"public\",{\"role\":{\"I\":\"3000\"}}]]",
                    "[[\"I\",\":acl\",\"public\",{\"role\":{\"I\":\"1500\"}}]]",
                    "[[\"I\",\":acl\",\"public\",{\"role\":1000}]]",
                    "[[\"I\",\":acl\",\"public\",{\"role\":{\"I\":\"1000\"},\"x\":1}]]",
                    "[[\"I\",\":acl\",\"u999\",{\"role\":{\"I\":\"1000\"}}]]",
                    "[[\"I\",\":acl\",\"u01\",{\"role\":{\"I\":\"1000\"}}]]",
                    "[[\"I\",\":acl\",\"bob\",{\"role\":{\"I\":\"1000\"}}]]"] {
            var copy = WorkingCopy { _ in nil }
            try DeltaApplier.apply(try changes(bad), to: &copy)
            XCTAssertThrowsError(try AclRules.checkFinal(copy) { $0 <= 3 }, bad)
        }
        var good = WorkingCopy { _ in nil }
        try DeltaApplier.apply(try changes("[[\"I\",\":acl\",\"u3\",{\"role\":{\"I\":\"2000\"}}]]"), to: &good)
        XCTAssertNoThrow(try AclRules.checkFinal(good) { $0 <= 3 })
    }
}
