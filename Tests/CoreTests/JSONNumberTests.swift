import XCTest
@testable import Core

final class JSONNumberTests: XCTestCase {
    func testIntegerInitialisers() {
        XCTAssertEqual(JSONNumber(Int64.min).text, "-9223372036854775808")
        XCTAssertEqual(JSONNumber(42).text, "42")
        XCTAssertTrue(JSONNumber(7).isInteger)
    }

    func testDoubleRendersLikeJavaScript() {
        let cases: [(Double, String)] = [
            (1.0, "1"), (3.0, "3"), (-3.0, "-3"), (1.5, "1.5"), (0.1, "0.1"), (-0.0, "0"), (0.0, "0"),
            (100.0, "100"), (1e16, "10000000000000000"), (1e20, "100000000000000000000"),
            (1e21, "1e+21"), (1.2345e21, "1.2345e+21"), (1e100, "1e+100"), (123.456, "123.456"),
            (0.000001, "0.000001"), (1e-7, "1e-7"), (1.5e-7, "1.5e-7"), (0.00012, "0.00012"),
            (18446744073709551616.0, "18446744073709552000"), (Double.leastNonzeroMagnitude, "5e-324"),
            (1.7976931348623157e308, "1.7976931348623157e+308"), (9007199254740993.0, "9007199254740992"),
        ]
        for (value, expected) in cases {
            XCTAssertEqual(JSONNumber(value)?.text, expected, "\(value)")
        }
    }

    func testDoubleRoundTrips() {
        for value in [0.1, 1.0 / 3.0, 2.0 / 3.0, Double.leastNormalMagnitude / 4, 123456.789e200, -98.76e-5, Double.pi] {
            guard let number = JSONNumber(value) else { return XCTFail("nil for \(value)") }
            XCTAssertEqual(number.doubleValue, value, number.text)
            XCTAssertNotNil(JSONNumber(text: number.text), number.text)
        }
    }

    func testNonFiniteDoublesHaveNoNumber() {
        XCTAssertNil(JSONNumber(Double.nan))
        XCTAssertNil(JSONNumber(Double.infinity))
        XCTAssertNil(JSONNumber(-Double.infinity))
        XCTAssertEqual(JSON.double(.nan), .null)
    }

    func testInt64ValueIsExact() {
        let cases: [(String, Int64?)] = [
            ("0", 0), ("-0", 0), ("9223372036854775807", .max), ("-9223372036854775808", .min),
            ("9223372036854775808", nil), ("-9223372036854775809", nil), ("1e3", 1000), ("2.50e1", 25),
            ("1.0", 1), ("-7.000", -7), ("1.5", nil), ("1.0000000000000001", nil), ("1e-2", nil),
            ("0.0e5", 0), ("100e-2", 1), ("10e-2", nil), ("1e19", nil), ("9.223372036854775807e18", .max),
            ("1e99999999999999999999", nil), ("0.5e-99999999999999", nil), ("120e-1", 12),
        ]
        for (text, expected) in cases {
            XCTAssertEqual(JSONNumber(text: text)?.int64Value, expected, text)
        }
    }

    func testDoubleValueOfExtremeLiterals() {
        XCTAssertEqual(JSONNumber(text: "1e400")?.doubleValue, .infinity)
        XCTAssertEqual(JSONNumber(text: "-1e400")?.doubleValue, -.infinity)
        XCTAssertEqual(JSONNumber(text: "1e-400")?.doubleValue, 0)
        XCTAssertEqual(JSONNumber(text: "2.5")?.doubleValue, 2.5)
    }

    func testTextInitialiserValidatesGrammar() {
        for bad in ["", "-", "01", "+1", "1.", ".1", "1e", "NaN", "Infinity", "1 ", " 1", "0x1", "1_000"] {
            XCTAssertNil(JSONNumber(text: bad), bad)
        }
        for good in ["0", "-0", "1.25", "1E-5", "123e+45"] {
            XCTAssertEqual(JSONNumber(text: good)?.text, good)
        }
    }

    func testEqualityIsTextual() {
        XCTAssertNotEqual(JSONNumber(text: "1"), JSONNumber(text: "1.0"))
        XCTAssertEqual(JSONNumber(text: "1")?.doubleValue, JSONNumber(text: "1.0")?.doubleValue)
        XCTAssertFalse(JSONNumber(text: "1.0")?.isInteger ?? true)
        XCTAssertFalse(JSONNumber(text: "1e2")?.isInteger ?? true)
    }

    func testAccessorsOnOtherKinds() {
        let value: JSON = ["s": "x", "n": 5, "d": 2.5, "b": true, "z": nil]
        XCTAssertEqual(value["n"]?.int64Value, 5)
        XCTAssertEqual(value["d"]?.doubleValue, 2.5)
        XCTAssertNil(value["d"]?.int64Value)
        XCTAssertNil(value["s"]?.int64Value)
        XCTAssertNil(value["b"]?.stringValue)
        XCTAssertNil(value["n"]?.boolValue)
        XCTAssertEqual(value["b"]?.boolValue, true)
        XCTAssertEqual(value["z"]?.isNull, true)
        XCTAssertNil(value["s"]?.arrayValue)
        XCTAssertNil(value["s"]?[0])
        XCTAssertNil(value["s"]?["k"])
    }
}
