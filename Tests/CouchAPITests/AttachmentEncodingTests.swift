import XCTest
import Core
@testable import CouchAPI

/// Which attachments are compressed, `Range` as CouchDB reads it, and `Accept-Encoding` for gzip.
final class AttachmentEncodingTests: XCTestCase {
    func testCompressibleTypesAsCouchDBMatchesThem() {
        let policy = AttachmentCompression()
        for type in ["text/plain", "TEXT/HTML", "text/css; charset=utf-8", "application/json", " application/xml ",
                     "application/javascript"] {
            XCTAssertTrue(policy.compresses(type), type)
        }
        for type in ["application/octet-stream", "image/png", "application/json5", "textual/plain", "", "application/xml+svg"] {
            XCTAssertFalse(policy.compresses(type), type)
        }
        XCTAssertFalse(AttachmentCompression(level: 0).compresses("text/plain"), "level 0 compresses nothing")
        let custom = AttachmentCompression(types: ["image/*svg*", " *+json"], level: 1)
        XCTAssertTrue(custom.compresses("image/svg+xml"))
        XCTAssertTrue(custom.compresses("application/ld+json"))
        XCTAssertFalse(custom.compresses("text/plain"))
        XCTAssertTrue(AttachmentCompression(types: ["*"], level: 1).compresses("anything/at-all"))
    }

    func testGlob() {
        func glob(_ p: String, _ t: String) -> Bool { AttachmentCompression.glob(Array(p.utf8)[...], Array(t.utf8)[...]) }
        XCTAssertTrue(glob("a*b*c", "aXXbYYc"))
        XCTAssertFalse(glob("a*b*c", "aXXbYY"))
        XCTAssertTrue(glob("**", ""))
        XCTAssertFalse(glob("a", ""))
        // Many stars and a near miss finish quickly (no exponential backtracking).
        XCTAssertFalse(glob(String(repeating: "a*", count: 30) + "b", String(repeating: "a", count: 200)))
    }

    func testRangesAsCouchDBReadsThem() throws {
        XCTAssertEqual(try AttachmentRanges.parse("bytes=0-1", length: 5), [0...1])
        XCTAssertEqual(try AttachmentRanges.parse("bytes=-2", length: 5), [3...4])
        XCTAssertEqual(try AttachmentRanges.parse("bytes=-9", length: 5), [0...4])
        XCTAssertEqual(try AttachmentRanges.parse("bytes=2-", length: 5), [2...4])
        XCTAssertEqual(try AttachmentRanges.parse("bytes=1-99", length: 5), [1...4])
        XCTAssertEqual(try AttachmentRanges.parse(" Bytes=0-0, 2-3 ,", length: 5), [0...0, 2...3])
        // A position too large for an integer saturates: past any attachment, so unsatisfiable.
        XCTAssertThrowsError(try AttachmentRanges.parse("bytes=99999999999999999999999-", length: 5))
        for whole in [nil, "bytes=0-", "bytes=1-1,0-", "bytes=a-1", "bytes=-", "bytes=1", "items=0-1", "bytes="] {
            XCTAssertNil(try AttachmentRanges.parse(whole, length: 5), whole ?? "nil")
        }
        for bad in ["bytes=5-9", "bytes=3-1", "bytes=-0", "bytes=0-1,7-8"] {
            XCTAssertThrowsError(try AttachmentRanges.parse(bad, length: 5), bad) {
                XCTAssertEqual(($0 as? CouchError)?.status, 416)
            }
        }
        XCTAssertThrowsError(try AttachmentRanges.parse("bytes=0-0", length: 0))
        XCTAssertEqual(AttachmentRanges.contentRange(2...3, length: 5), "bytes 2-3/5")
        let body = AttachmentRanges.multipart([0...0, 3...4], length: 5, contentType: "t/x", boundary: "B") { range in
            Array(Array("hello".utf8)[range])
        }
        XCTAssertEqual(String(decoding: body, as: UTF8.self),
                       "--B\r\nContent-Type: t/x\r\nContent-Range: bytes 0-0/5\r\n\r\nh\r\n--B\r\nContent-Type: t/x\r\nContent-Range: bytes 3-4/5\r\n\r\nlo\r\n--B--")
    }

    func testAcceptEncoding() {
        XCTAssertFalse(AcceptEncoding.allowsGzip(nil))
        XCTAssertFalse(AcceptEncoding.allowsGzip(""))
        XCTAssertFalse(AcceptEncoding.allowsGzip("identity, deflate"))
        XCTAssertTrue(AcceptEncoding.allowsGzip("gzip"))
        XCTAssertTrue(AcceptEncoding.allowsGzip("deflate, GZIP;q=0.5"))
        XCTAssertTrue(AcceptEncoding.allowsGzip("x-gzip"))
        XCTAssertTrue(AcceptEncoding.allowsGzip("*"))
        XCTAssertFalse(AcceptEncoding.allowsGzip("gzip;q=0"))
        XCTAssertFalse(AcceptEncoding.allowsGzip("*, gzip;q=0"))
        XCTAssertFalse(AcceptEncoding.allowsGzip("*;q=0"))
        XCTAssertFalse(AcceptEncoding.allowsGzip("gzip;q=nonsense"))
    }
}
