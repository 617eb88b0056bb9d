import XCTest
@testable import ParseAPI

final class ParseDefaultsTests: XCTestCase {
    func testDefaultMount() { XCTAssertEqual(ParseDefaults.mountPath, "/parse") }
}
