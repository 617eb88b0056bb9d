import Core
import XCTest
@testable import HTTP

final class ValidatorsTests: XCTestCase {
    func testHTTPDatesInAllThreeForms() {
        XCTAssertEqual(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 GMT"), 784_111_777)
        XCTAssertEqual(HTTPDate.parse("Sunday, 06-Nov-94 08:49:37 GMT"), 784_111_777)
        XCTAssertEqual(HTTPDate.parse("Sun Nov  6 08:49:37 1994"), 784_111_777)
        XCTAssertEqual(HTTPDate.parse("Thu, 01 Jan 1970 00:00:00 GMT"), 0)
        XCTAssertEqual(HTTPDate.parse("Tue, 29 Feb 2000 12:00:00 GMT"), 951_825_600)
        XCTAssertEqual(HTTPDate.parse("Friday, 01-Jan-21 00:00:00 GMT"), 1_609_459_200)
        for seconds in [0, 784_111_777, 951_825_600, 1_700_000_000, 4_102_444_800] {
            XCTAssertEqual(HTTPDate.parse(HTTPDate.format(epochSeconds: seconds)), seconds)
        }
    }

    func testInvalidDatesAreRefused() {
        for text in ["", "yesterday", "Sun, 06 Nov 1994 08:49:37 UTC", "Sun, 31 Feb 1994 08:49:37 GMT",
                     "Sun, 29 Feb 1900 08:49:37 GMT", "Sun, 06 Nov 1994 24:00:00 GMT", "Sun, 06 nov 1994 08:49:37 GMT",
                     "Sun, 06 Nov 94 08:49:37 GMT", "Sun, 6x Nov 1994 08:49:37 GMT", "Sun, 06 Nov 1994 08:49 GMT",
                     "Sun, 00 Nov 1994 08:49:37 GMT", "Sun, 06 Nov 0000 08:49:37 GMT",
                     "Sun, 99999999999999999999 Nov 1994 08:49:37 GMT"] {
            XCTAssertNil(HTTPDate.parse(text), text)
        }
    }

    func testEntityTagLists() {
        XCTAssertTrue(EntityTagList.contains("\"a\"", "\"a\"", strong: true))
        XCTAssertTrue(EntityTagList.contains(" \"x\" ,W/\"a\"", "\"a\"", strong: false))
        XCTAssertFalse(EntityTagList.contains("W/\"a\"", "\"a\"", strong: true))
        XCTAssertFalse(EntityTagList.contains("\"a\"", "W/\"a\"", strong: true))
        XCTAssertTrue(EntityTagList.contains("\"a\"", "W/\"a\"", strong: false))
        XCTAssertTrue(EntityTagList.contains("*", "\"a\"", strong: false))
        XCTAssertTrue(EntityTagList.contains("*", nil, strong: false), "* matches a representation without a tag")
        XCTAssertFalse(EntityTagList.contains("*", "\"a\"", strong: true))
        XCTAssertFalse(EntityTagList.contains("\"ab\"", "\"a\"", strong: false))
        XCTAssertFalse(EntityTagList.contains("\"a", "\"a\"", strong: false), "unterminated")
        XCTAssertFalse(EntityTagList.contains("a, \"a\"", "\"a\"", strong: false), "malformed from the first entry")
        XCTAssertFalse(EntityTagList.contains("\"a\"", nil, strong: false))
        XCTAssertFalse(EntityTagList.contains("", "\"a\"", strong: false))
    }

    func testHeadersOfFullAndNotModifiedAnswers() {
        var full = HTTPHeaders()
        Validators(etag: "\"t\"", lastModified: 0).addHeaders(to: &full)
        XCTAssertEqual(full["ETag"], "\"t\"")
        XCTAssertEqual(full["Last-Modified"], "Thu, 01 Jan 1970 00:00:00 GMT")
        var notModified = HTTPHeaders()
        Validators(etag: "\"t\"", lastModified: 0).addHeaders(to: &notModified, notModified: true)
        XCTAssertNil(notModified["Last-Modified"])
        var dateOnly = HTTPHeaders()
        Validators(lastModified: 0).addHeaders(to: &dateOnly, notModified: true)
        XCTAssertEqual(dateOnly["Last-Modified"], "Thu, 01 Jan 1970 00:00:00 GMT")
        XCTAssertNil(dateOnly["ETag"])
        XCTAssertEqual(Validators.strongETag("abc"), "\"abc\"")
    }
}
