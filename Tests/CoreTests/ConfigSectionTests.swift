import XCTest
@testable import Core

final class ConfigSectionTests: XCTestCase {
    private func failingKey(_ body: () throws -> Void) -> String? {
        do { try body(); return nil } catch let error as ConfigError { return error.key } catch { return "other: \(error)" }
    }

    func testMissingAndNullGiveTheDefault() throws {
        let s = ConfigSection(["n": .null], path: "x")
        XCTAssertEqual(try s.int("n", 7), 7)
        XCTAssertEqual(try s.int("missing", 8), 8)
        XCTAssertTrue(try s.bool("n", true))
        XCTAssertNil(try s.string("n"))
        XCTAssertEqual(try s.stringList("n", ["d"]), ["d"])
        XCTAssertNil(try s.object("n"))
        XCTAssertTrue(s.contains("n"))
        XCTAssertFalse(s.contains("missing"))
    }

    func testTextFormsFromTheEnvironment() throws {
        let s = ConfigSection(["b1": "YES", "b2": "off", "b3": 1, "b4": 0, "i": " 25 ", "d": "2.5", "l": "a, b,,c ",
                               "id": 12345, "o": "{\"k\":1}"], path: "x")
        XCTAssertTrue(try s.bool("b1", false))
        XCTAssertFalse(try s.bool("b2", true))
        XCTAssertTrue(try s.bool("b3", false))
        XCTAssertFalse(try s.bool("b4", true))
        XCTAssertEqual(try s.int("i", 0), 25)
        XCTAssertEqual(try s.double("d", 0), 2.5)
        XCTAssertEqual(try s.stringList("l", []), ["a", "b", "c"])
        XCTAssertEqual(try s.string("id"), "12345")
        XCTAssertEqual(try s.object("o")?["k"]?.int64Value, 1)
    }

    func testErrorsNameTheDottedKey() throws {
        let s = ConfigSection(["b": 3, "i": 5, "t": "soon", "l": [1], "o": "[]", "inner": ["deep": "x"], "s": ["x"]],
                              path: "parse")
        XCTAssertEqual(failingKey { _ = try s.bool("b", true) }, "parse.b")
        XCTAssertEqual(failingKey { _ = try s.int("i", 0, min: 6) }, "parse.i")
        XCTAssertEqual(failingKey { _ = try s.int("t", 0) }, "parse.t")
        XCTAssertEqual(failingKey { _ = try s.stringList("l", []) }, "parse.l")
        XCTAssertEqual(failingKey { _ = try s.object("o") }, "parse.o")
        XCTAssertEqual(failingKey { _ = try s.string("s") }, "parse.s")
        XCTAssertEqual(failingKey { _ = try s.nested("inner").int("deep", 0) }, "parse.inner.deep")
        XCTAssertEqual(failingKey { try s.rejectUnknownKeys(["b", "i", "t", "l", "o", "inner"]) }, "parse.s")
        XCTAssertThrowsError(try s.int("i", 0, min: 6, max: 9)) {
            XCTAssertEqual("\($0)", "parse.i: must be an integer between 6 and 9")
        }
        XCTAssertThrowsError(try s.object("o", reason: "must be an object of a to b")) {
            XCTAssertEqual(($0 as? ConfigError)?.reason, "must be an object of a to b")
        }
    }

    func testTextHelpers() {
        XCTAssertEqual(ConfigSection.boolean(fromText: "On"), true)
        XCTAssertEqual(ConfigSection.boolean(fromText: "NO"), false)
        XCTAssertNil(ConfigSection.boolean(fromText: "maybe"))
        XCTAssertEqual(ConfigSection.integer(fromText: "-3"), -3)
        XCTAssertNil(ConfigSection.integer(fromText: "3x"))
        XCTAssertNil(ConfigSection.integer(fromText: "99999999999999999999"))
        XCTAssertEqual(ConfigSection.list(fromText: " a ,b,"), ["a", "b"])
        XCTAssertEqual(ConfigSection.list(fromText: ""), [])
    }
}
