import XCTest
@testable import HTTP

final class ByteClassTests: XCTestCase {
    func testTokenCharsMatchRFC9110() {
        let tchar = Set("!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ".utf8)
        for byte in 0...255 {
            let b = UInt8(byte)
            XCTAssertEqual(ByteClass.isTokenChar(b), tchar.contains(b), "byte \(byte)")
        }
    }

    func testFieldValueScanMatchesBytewiseRule() {
        // Every byte value, at every position of a 20-byte value, so both the 8-byte steps and the tail see it.
        for byte in 0...255 {
            for position in 0..<20 {
                var value = Array(repeating: UInt8(ascii: "a"), count: 20)
                value[position] = UInt8(byte)
                let expected = ByteClass.isFieldValueChar(UInt8(byte))
                let got = value.withUnsafeBytes { $0.allFieldValueChars(from: 0, to: 20) }
                XCTAssertEqual(got, expected, "byte \(byte) at \(position)")
            }
        }
        XCTAssertTrue(ByteClass.isFieldValueChar(0x09))
        XCTAssertTrue(ByteClass.isFieldValueChar(0x80))
        XCTAssertFalse(ByteClass.isFieldValueChar(0x7F))
        XCTAssertFalse(ByteClass.isFieldValueChar(0x00))
    }
}

final class TrimmingOWSTests: XCTestCase {
    func testTrimsOnlySpacesAndTabsAtBothEnds() {
        XCTAssertEqual("  \tBearer abc \t ".trimmingOWS(), "Bearer abc")
        XCTAssertEqual("abc".trimmingOWS(), "abc")
        XCTAssertEqual(" \t ".trimmingOWS(), "")
        XCTAssertEqual("".trimmingOWS(), "")
        // Inner whitespace stays; line breaks and non-ASCII spaces are not HTTP whitespace.
        XCTAssertEqual(" a  b ".trimmingOWS(), "a  b")
        XCTAssertEqual("\r\nabc\n".trimmingOWS(), "\r\nabc\n")
        XCTAssertEqual("\u{00A0}abc".trimmingOWS(), "\u{00A0}abc")
        // Substrings, and multi-byte characters next to the trimmed bytes.
        let text = "x  é ü  y"
        XCTAssertEqual(text.dropFirst().dropLast().trimmingOWS(), "é ü")
    }
}
