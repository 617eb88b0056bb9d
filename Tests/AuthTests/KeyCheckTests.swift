import XCTest
@testable import Auth

final class KeyCheckTests: XCTestCase {
    func testMatchesOnlyEqualKeys() {
        XCTAssertTrue(KeyCheck.matches("secret", "secret"))
        XCTAssertFalse(KeyCheck.matches("secreT", "secret"))
        XCTAssertFalse(KeyCheck.matches("secret1", "secret"))
        XCTAssertFalse(KeyCheck.matches("", "secret"))
        XCTAssertFalse(KeyCheck.matches(nil, "secret"))
    }
}
