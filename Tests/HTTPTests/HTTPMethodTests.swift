import XCTest
@testable import HTTP

final class HTTPMethodTests: XCTestCase {
    func testMethodsAreCaseSensitiveTokens() {
        XCTAssertEqual(HTTPMethod.get.rawValue, "GET")
        XCTAssertNotEqual(HTTPMethod(rawValue: "get"), .get)
    }
}
