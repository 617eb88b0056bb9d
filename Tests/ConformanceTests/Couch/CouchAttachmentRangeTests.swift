import Foundation
import XCTest
import Core

/// `Range` on attachments (spec §3.5.2, CD-185), as CouchDB answers it.
final class CouchAttachmentRangeTests: CouchTestCase {
    private func range(_ spec: String, _ name: String = "a.txt", headers: [(String, String)] = []) throws -> TestResponse {
        try send("GET", "/db/doc/\(name)", headers: [("Range", spec)] + headers)
    }

    func test_CD_185_rangesOnAttachments() throws {
        // Identity-stored (octet-stream is never compressed): ranges apply.
        try put("doc", #"{"_attachments":{"a.txt":{"content_type":"application/octet-stream","data":"aGVsbG8="},"t.txt":{"content_type":"text/plain","data":"aGVsbG8="}}}"#)
        let one = try range("bytes=0-1")
        XCTAssertEqual(one.status, 206)
        XCTAssertEqual(one.text, "he")
        XCTAssertEqual(one.header("Content-Range"), "bytes 0-1/5")
        XCTAssertEqual(one.header("Content-Length"), "2")
        XCTAssertEqual(one.header("Accept-Ranges"), "bytes")
        XCTAssertNil(one.header("Content-MD5"), "the digest is of the whole")
        XCTAssertEqual(try range("bytes=-2").text, "lo")
        XCTAssertEqual(try range("bytes=3-").text, "lo")
        XCTAssertEqual(try range("bytes=1-99").header("Content-Range"), "bytes 1-4/5")
        assertError(try range("bytes=10-20"), 416, "requested_range_not_satisfiable", "Requested range not satisfiable")
        assertError(try range("bytes=3-1"), 416, "requested_range_not_satisfiable")
        // `0-`, an unparsable header and another unit: the whole attachment (CouchDB's reading).
        for whole in ["bytes=0-", "bytes=x-1", "items=0-1"] {
            let r = try range(whole)
            XCTAssertEqual(r.status, 200, whole)
            XCTAssertEqual(r.text, "hello", whole)
        }
        // Several ranges: multipart/byteranges, laid out as CouchDB writes it.
        let multi = try range("bytes=0-0,2-3")
        XCTAssertEqual(multi.status, 206)
        let type = multi.header("Content-Type") ?? ""
        XCTAssertTrue(type.hasPrefix("multipart/byteranges; boundary=\""), type)
        let boundary = String(type.dropFirst("multipart/byteranges; boundary=\"".count).dropLast())
        XCTAssertEqual(multi.text, "--\(boundary)\r\nContent-Type: application/octet-stream\r\nContent-Range: bytes 0-0/5\r\n\r\nh\r\n--\(boundary)\r\nContent-Type: application/octet-stream\r\nContent-Range: bytes 2-3/5\r\n\r\nll\r\n--\(boundary)--")
        // More than ten ranges, or overlaps adding up past the whole: the whole attachment.
        XCTAssertEqual(try range("bytes=" + Array(repeating: "0-0", count: 11).joined(separator: ",")).status, 200)
        XCTAssertEqual(try range("bytes=0-4,0-4").status, 200)
        // If-None-Match wins over Range.
        let etag = try send("GET", "/db/doc/a.txt").header("ETag") ?? ""
        XCTAssertEqual(try range("bytes=0-1", headers: [("If-None-Match", etag)]).status, 304)
        // gzip-stored attachments take no ranges (Accept-Ranges: none): the whole, decoded; 416 still applies.
        let gz = try range("bytes=0-1", "t.txt")
        XCTAssertEqual(gz.status, 200)
        XCTAssertEqual(gz.text, "hello")
        XCTAssertEqual(gz.header("Accept-Ranges"), "none")
        assertError(try range("bytes=10-20", "t.txt"), 416, "requested_range_not_satisfiable")
    }
}
