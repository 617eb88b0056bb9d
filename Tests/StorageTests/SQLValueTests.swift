import XCTest
@testable import Storage

final class SQLValueTests: XCTestCase {
    func testAccessorsMatchStorageClass() {
        XCTAssertEqual(SQLValue.integer(3).double, 3)
        XCTAssertNil(SQLValue.text("x").int64)
    }
}
