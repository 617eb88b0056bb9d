import XCTest
@testable import Core

/// `rejectsDecimalOverflow`: decimal literals beyond binary64 are refused on request, integers never are.
final class JSONDecimalOverflowTests: XCTestCase {
    private let strict = JSONParseOptions(rejectsDecimalOverflow: true)

    func testOffByDefault() throws {
        // Other APIs echo any grammar-valid literal unchanged.
        let value = try JSONParser.parse("[1e400,-1E999,1.5e308999]")
        XCTAssertEqual(value.serialized(), "[1e400,-1E999,1.5e308999]")
    }

    func testOverflowingDecimalsRefused() {
        for (text, offset) in [("1e400", 0), ("[-1e400]", 1), (#"{"a":1.8e308}"#, 5), ("[1,2E309]", 3),
                               ("17976931348623159" + String(repeating: "0", count: 292) + ".0", 0)] {
            XCTAssertThrowsError(try JSONParser.parse(text, options: strict), text) { error in
                XCTAssertEqual(error as? JSONError, .syntax(offset: offset, message: "number out of range"), text)
            }
        }
    }

    func testLargestFiniteAndUnderflowAccepted() throws {
        // 1.7976931348623158e308 rounds to the largest finite double; tiny values round to subnormals or zero.
        for text in ["1.7976931348623158e308", "-1.7976931348623157e308", "4.9e-324", "1e-400", "-0.0", "0e999999"] {
            XCTAssertEqual(try JSONParser.parse(text, options: strict).numberValue?.text, text)
        }
    }

    func testIntegerLiteralsOfAnySizeAccepted() throws {
        let huge = "9" + String(repeating: "0", count: 500)
        XCTAssertEqual(try JSONParser.parse("[\(huge),-\(huge)]", options: strict).serialized(), "[\(huge),-\(huge)]")
    }
}
