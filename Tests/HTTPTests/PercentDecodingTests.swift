import XCTest
@testable import HTTP

final class PercentDecodingTests: XCTestCase {
    func testDecodes() {
        XCTAssertEqual(PercentDecoding.decodePath("/a%20b/c%2Fd"), "/a b/c/d")
        XCTAssertEqual(PercentDecoding.decodePath("/caf%C3%A9"), "/café")
        XCTAssertEqual(PercentDecoding.decodePath("/plain"), "/plain")
        XCTAssertEqual(PercentDecoding.decodePath("/a+b"), "/a+b", "'+' is literal in paths")
        XCTAssertEqual(PercentDecoding.decodePath(""), "")
    }

    func testInvalidEscapes() {
        XCTAssertNil(PercentDecoding.decodePath("/a%"))
        XCTAssertNil(PercentDecoding.decodePath("/a%2"))
        XCTAssertNil(PercentDecoding.decodePath("/a%G0"))
        XCTAssertNil(PercentDecoding.decodePath("/a%%20"))
    }

    func testNulRefused() {
        XCTAssertNil(PercentDecoding.decodePath("/a%00b"))
        XCTAssertNil(PercentDecoding.decodePath("/a\0b"))
    }

    func testInvalidUTF8Refused() {
        XCTAssertNil(PercentDecoding.decodePath("/%FF"))
        XCTAssertNil(PercentDecoding.decodePath("/%C3"))
        XCTAssertNil(PercentDecoding.decodePath("/%ED%A0%80"), "encoded surrogate")
    }

    func testSubstringOfLargerString() {
        let target = "/x/y%21?q=1"
        let path = target[..<(target.firstIndex(of: "?") ?? target.endIndex)]
        XCTAssertEqual(PercentDecoding.decodePath(path), "/x/y!")
    }
}
