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

    /// ASCII takes a shortcut past the UTF-8 validator; anything else is still validated, escaped or not.
    func testASCIIShortcutAndValidation() {
        XCTAssertEqual(PercentDecoding.decodePath("/plain/ascii_path-1.2~"), "/plain/ascii_path-1.2~")
        XCTAssertEqual(PercentDecoding.decodePath("/caf%C3%A9"), "/café")
        XCTAssertEqual(PercentDecoding.decodePath("/café"), "/café")
        XCTAssertNil(PercentDecoding.decodePath("/bad%C3"))
        XCTAssertNil(PercentDecoding.decodePath("/bad%FF%FE"))
        let invalid: [UInt8] = [0x2F, 0xC3, 0x28]
        XCTAssertNil(invalid.withUnsafeBytes { PercentCoding.validUTF8($0) })
        XCTAssertEqual(Array("x\u{7F}".utf8).withUnsafeBytes { PercentCoding.validUTF8($0) }, "x\u{7F}")
    }
}
