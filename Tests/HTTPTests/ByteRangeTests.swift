import XCTest
@testable import HTTP

final class ByteRangeTests: XCTestCase {
    func testClosedRange() {
        XCTAssertEqual(ByteRange.parse("bytes=0-9", length: 100), .partial(offset: 0, length: 10))
        XCTAssertEqual(ByteRange.parse("bytes=10-10", length: 100), .partial(offset: 10, length: 1))
        XCTAssertEqual(ByteRange.parse("Bytes = 5-7", length: 100), .full, "no whitespace around '='")
        XCTAssertEqual(ByteRange.parse("BYTES=5-7", length: 100), .partial(offset: 5, length: 3))
        XCTAssertEqual(ByteRange.parse("bytes=90-200", length: 100), .partial(offset: 90, length: 10), "clamped")
        XCTAssertEqual(ByteRange.parse("bytes=0-99999999999999999999999", length: 100), .partial(offset: 0, length: 100))
    }

    func testOpenRange() {
        XCTAssertEqual(ByteRange.parse("bytes=95-", length: 100), .partial(offset: 95, length: 5))
        XCTAssertEqual(ByteRange.parse("bytes=0-", length: 100), .partial(offset: 0, length: 100))
        XCTAssertEqual(ByteRange.parse("bytes=99-", length: 100), .partial(offset: 99, length: 1))
    }

    func testSuffixRange() {
        XCTAssertEqual(ByteRange.parse("bytes=-10", length: 100), .partial(offset: 90, length: 10))
        XCTAssertEqual(ByteRange.parse("bytes=-500", length: 100), .partial(offset: 0, length: 100))
        XCTAssertEqual(ByteRange.parse("bytes=-0", length: 100), .unsatisfiable)
        XCTAssertEqual(ByteRange.parse("bytes=-5", length: 0), .unsatisfiable)
    }

    func testUnsatisfiable() {
        XCTAssertEqual(ByteRange.parse("bytes=100-", length: 100), .unsatisfiable)
        XCTAssertEqual(ByteRange.parse("bytes=100-200", length: 100), .unsatisfiable)
        XCTAssertEqual(ByteRange.parse("bytes=0-0", length: 0), .unsatisfiable)
        XCTAssertEqual(ByteRange.parse("bytes=99999999999999999999-", length: 100), .unsatisfiable)
    }

    func testMultipleRangesAnsweredFull() {
        XCTAssertEqual(ByteRange.parse("bytes=0-1,5-6", length: 100), .full)
        XCTAssertEqual(ByteRange.parse("bytes=0-1, -5", length: 100), .full)
        XCTAssertEqual(ByteRange.parse("bytes=0-1, ", length: 100), .partial(offset: 0, length: 2), "empty list elements are ignored")
    }

    func testMalformedIgnored() {
        for header in ["", "bytes", "bytes=", "bytes=-", "bytes=a-b", "bytes=5", "bytes=9-5", "items=0-5",
                       "bytes=0x1-2", "bytes=1-2-3", "bytes= -", "bytes=+1-2"] {
            XCTAssertEqual(ByteRange.parse(header, length: 100), .full, header)
        }
    }
}
