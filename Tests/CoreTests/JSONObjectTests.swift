import XCTest
@testable import Core

final class JSONObjectTests: XCTestCase {
    func testInsertionOrderAndReplacementPosition() {
        var object: JSONObject = ["b": 1, "a": 2]
        object["c"] = 3
        object["b"] = 10
        XCTAssertEqual(object.keys, ["b", "a", "c"])
        XCTAssertEqual(object["b"], 10)
        object["a"] = nil
        XCTAssertEqual(object.keys, ["b", "c"])
        XCTAssertEqual(object.count, 2)
        XCTAssertFalse(object.isEmpty)
        XCTAssertNil(object.removeValue(forKey: "missing"))
        XCTAssertEqual(object.removeValue(forKey: "c"), 3)
        XCTAssertEqual(object.keys, ["b"])
    }

    func testDuplicatePairsLaterWins() {
        let object = JSONObject([("x", 1), ("y", 2), ("x", 3)])
        XCTAssertEqual(object.keys, ["x", "y"])
        XCTAssertEqual(object["x"], 3)
    }

    func testLargeObjectLookupsAndRemovalKeepIndexConsistent() {
        var object = JSONObject()
        for i in 0..<1000 { object["k\(i)"] = .int(i) }
        XCTAssertEqual(object.count, 1000)
        XCTAssertEqual(object["k999"], .int(999))
        object["k500"] = nil
        XCTAssertNil(object["k500"])
        XCTAssertEqual(object["k501"], .int(501))
        XCTAssertEqual(object.keys[500], "k501")
        object["k0"] = "first"
        XCTAssertEqual(object.keys.first, "k0")
        for i in 0..<995 where i != 500 { object["k\(i)"] = nil }
        XCTAssertEqual(object.keys, ["k995", "k996", "k997", "k998", "k999"])
        XCTAssertEqual(object["k997"], .int(997))
        XCTAssertTrue(object.contains("k998"))
    }

    func testSequenceYieldsLabelledPairs() {
        let object: JSONObject = ["a": 1, "b": "two"]
        var seen: [String] = []
        for (key, value) in object { seen.append("\(key)=\(value.serialized())") }
        XCTAssertEqual(seen, ["a=1", "b=\"two\""])
        XCTAssertEqual(object.map(\.key), ["a", "b"])
        XCTAssertEqual(object.values, [1, "two"])
    }

    func testEqualityIgnoresOrderAndHashAgrees() {
        let a: JSONObject = ["x": 1, "y": [true, nil]]
        let b: JSONObject = ["y": [true, nil], "x": 1]
        XCTAssertEqual(a, b)
        XCTAssertEqual(a.hashValue, b.hashValue)
        XCTAssertNotEqual(a, ["x": 1])
        XCTAssertNotEqual(a, ["x": 2, "y": [true, nil]])
        XCTAssertEqual(Set<JSON>([.object(a), .object(b)]).count, 1)
    }

    func testLiteralsBuildExpectedValues() {
        let value: JSON = ["n": 1, "f": 1.5, "s": "t", "a": [1, "x", nil], "o": ["k": false]]
        XCTAssertEqual(value.serialized(), #"{"n":1,"f":1.5,"s":"t","a":[1,"x",null],"o":{"k":false}}"#)
    }
}
