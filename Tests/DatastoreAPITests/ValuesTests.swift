import XCTest
import Core
@testable import DatastoreAPI

/// Value grammar (§5.5) and size accounting (§5.8).
final class ValuesTests: XCTestCase {
    private func json(_ text: String) throws -> JSON { try JSONParser.parse(text) }

    private func valid(_ text: String, file: StaticString = #filePath, line: UInt = #line) throws -> Int {
        try Values.validateValue(try json(text))
    }

    private func assertInvalid(_ text: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let value = try json(text)
        XCTAssertThrowsError(try Values.validateValue(value), text, file: file, line: line)
    }

    func testAtoms() throws {
        XCTAssertEqual(try valid("true"), 0)
        XCTAssertEqual(try valid("\"café\""), 5)
        XCTAssertEqual(try valid("1.5"), 0)
        XCTAssertEqual(try valid("-0"), 0)
        XCTAssertEqual(try valid("1e308"), 0)
        XCTAssertEqual(try valid("{\"I\":\"-9223372036854775808\"}"), 0)
        XCTAssertEqual(try valid("{\"N\":\"+inf\"}"), 0)
        XCTAssertEqual(try valid("{\"T\":\"-1\"}"), 0)
        XCTAssertEqual(try valid("{\"B\":\"AAH_\"}"), 3)
        XCTAssertEqual(try valid("{\"B\":\"\"}"), 0)
        XCTAssertEqual(try valid("{\"B\":\"AAA\"}"), 2)
    }

    func testInvalidAtoms() throws {
        for text in ["null", "[null]", "[\"a\",[\"b\"]]", "{\"I\":\"01\"}", "{\"I\":\"-0\"}",
                     "{\"I\":\"9223372036854775808\"}", "{\"I\":5}", "{\"I\":\"1.5\"}", "{\"N\":\"inf\"}",
                     "{\"N\":\"NaN\"}", "{\"T\":\"abc\"}", "{\"T\":1400000000000}", "{\"B\":\"AA==\"}",
                     "{\"B\":\"A\"}", "{\"B\":\"a+b/\"}", "{\"X\":\"1\"}", "{\"I\":\"1\",\"T\":\"2\"}", "{}", "1e999"] {
            try assertInvalid(text)
        }
    }

    func testListSizeCountsTwentyPerItem() throws {
        XCTAssertEqual(try valid("[\"a\",2]"), 41)
        XCTAssertEqual(try valid("[]"), 0)
    }

    func testWorkedExampleRecordSize() throws {
        guard case .object(let fields) = try json("{\"name\":\"café\",\"n\":{\"I\":\"5\"},\"items\":[\"a\",2]}") else {
            return XCTFail("not an object")
        }
        XCTAssertEqual(Values.recordSize(fields), 446)
        XCTAssertEqual(Values.recordSize(JSONObject()), 100)
    }
}
