import XCTest
import Core

final class PercentEncodingTests: XCTestCase {
    func testUnreservedCharactersStayAndEveryOtherByteIsEscapedInUpperCaseHex() {
        XCTAssertEqual(PercentEncoding.unreserved("Az09-._~"), "Az09-._~")
        XCTAssertEqual(PercentEncoding.unreserved("a b/c+d&e=f"), "a%20b%2Fc%2Bd%26e%3Df")
        XCTAssertEqual(PercentEncoding.unreserved("x\r\nSet-Cookie: y"), "x%0D%0ASet-Cookie%3A%20y")
        XCTAssertEqual(PercentEncoding.unreserved("é\u{0}"), "%C3%A9%00")
        XCTAssertEqual(PercentEncoding.unreserved(""), "")
    }
}
