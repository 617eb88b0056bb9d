import XCTest
@testable import Storage

final class SQLValueTests: XCTestCase {
    func testAccessorsMatchStorageClass() {
        XCTAssertEqual(SQLValue.integer(3).double, 3)
        XCTAssertNil(SQLValue.text("x").int64)
        XCTAssertEqual(SQLValue.text("x").string, "x")
        XCTAssertEqual(SQLValue.blob([1, 2]).bytes, [1, 2])
        XCTAssertNil(SQLValue.real(1.5).int64)
        XCTAssertTrue(SQLValue.null.isNull)
        XCTAssertEqual(SQLValue.integer(0).bool, false)
    }

    func testLiterals() {
        let values: [SQLValue] = [1, 2.5, "s", nil, true]
        XCTAssertEqual(values, [.integer(1), .real(2.5), .text("s"), .null, .integer(1)])
    }

    func testConvertibles() {
        XCTAssertEqual(7.sqlValue, .integer(7))
        XCTAssertEqual(Int64(-2).sqlValue, .integer(-2))
        XCTAssertEqual(false.sqlValue, .integer(0))
        XCTAssertEqual("a".sqlValue, .text("a"))
        XCTAssertEqual([UInt8]([9]).sqlValue, .blob([9]))
        XCTAssertEqual(Optional<String>.none.sqlValue, .null)
        XCTAssertEqual(Optional(3.5).sqlValue, .real(3.5))
    }

    func testRowSubscriptsNeverTrap() {
        let row = Row(columns: ["a", "B"], values: [.integer(1), .text("b")])
        XCTAssertEqual(row[0], .integer(1))
        XCTAssertEqual(row[5], .null)
        XCTAssertEqual(row[-1], .null)
        XCTAssertEqual(row["B"], .text("b"))
        XCTAssertEqual(row["b"], .text("b"))
        XCTAssertEqual(row["missing"], .null)
    }
}
