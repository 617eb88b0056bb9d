import XCTest
@testable import Core

final class JSONObjectRemovalTests: XCTestCase {
    func testRemovesTheNamedKeysAndKeepsTheOrderOfTheRest() {
        for count in [3, 40] {
            var object = JSONObject((0..<count).map { ("k\($0)", JSON.int($0)) })
            object.removeValues(forKeys: ["k1", "missing", "k2", "k1"])
            XCTAssertEqual(object.keys, ["k0"] + (3..<count).map { "k\($0)" })
            // The lookups still find every remaining member, and new keys still append.
            XCTAssertEqual(object["k0"], .int(0))
            if count > 3 { XCTAssertEqual(object["k\(count - 1)"], .int(count - 1)) }
            XCTAssertNil(object["k2"])
            object["k1"] = true
            XCTAssertEqual(object.keys.last, "k1")
            XCTAssertEqual(object["k1"], true)
        }
    }

    func testKeysAreMatchedByBytes() {
        var object: JSONObject = ["\u{E9}": 1, "e\u{301}": 2]
        object.removeValues(forKeys: ["e\u{301}"])
        XCTAssertEqual(object.count, 1)
        XCTAssertEqual(object["\u{E9}"], 1)
    }

    func testRemovingNothingLeavesTheObjectAlone() {
        var object: JSONObject = ["a": 1]
        object.removeValues(forKeys: [])
        object.removeValues(forKeys: ["b"])
        XCTAssertEqual(object, ["a": 1])
    }
}
