import XCTest
@testable import Core

final class QuartetVersionTests: XCTestCase {
    func testVersionIsSemantic() {
        XCTAssertEqual(QuartetVersion.string.split(separator: ".").count, 3)
    }
}
