import Foundation
import XCTest
import Core

/// Document reads that carry attachment data as JSON (spec §3.3.1, §3.5.1, §5.6): CD-102, CD-103.
final class CouchAttachmentReadTests: CouchTestCase {
    private let acceptJSON = [("Accept", "application/json")]

    func test_CD_102_inlineDataWithAttachmentsTrue() throws {
        let r1 = try put("doc", #"{"v":1,"_attachments":{"a.txt":{"content_type":"text/plain","data":"aGVsbG8="}}}"#)
        let r = try send("GET", "/db/doc?attachments=true", headers: acceptJSON)
        XCTAssertEqual(r.status, 200, r.text)
        XCTAssertEqual(compact(r),
                       #"{"_id":"doc","_rev":"\#(r1)","v":1,"_attachments":{"a.txt":{"content_type":"text/plain","revpos":1,"digest":"md5-XUFAKrxLKna5cZ2REBfFkg==","data":"aGVsbG8="}}}"#)
        // An older revision named by `rev` inlines its own attachments; a document without any is unchanged.
        let up = try send("PUT", "/db/doc/b.bin?rev=\(r1)", bytes: [0xFF, 0x00], headers: [("Content-Type", "application/octet-stream")])
        XCTAssertEqual(up.status, 201, up.text)
        let old = json(try send("GET", "/db/doc?rev=\(r1)&attachments=true", headers: acceptJSON))
        XCTAssertNil(old["_attachments"]?["b.bin"])
        XCTAssertEqual(old["_attachments"]?["a.txt"]?["data"]?.stringValue, "aGVsbG8=")
        let now = json(try send("GET", "/db/doc?attachments=true", headers: acceptJSON))
        XCTAssertEqual(now["_attachments"]?["b.bin"]?["data"]?.stringValue, "/wA=")
        XCTAssertNil(now["_attachments"]?["b.bin"]?["length"])
        try put("plain", #"{"x":1}"#)
        XCTAssertEqual(json(try send("GET", "/db/plain?attachments=true", headers: acceptJSON))["x"]?.int64Value, 1)
        // A deleted winner stays 404 "deleted".
        let g1 = try put("gone", #"{"_attachments":{"a":{"data":"eA=="}}}"#)
        XCTAssertEqual(try send("DELETE", "/db/gone?rev=\(g1)").status, 200)
        assertError(try send("GET", "/db/gone?attachments=true", headers: acceptJSON), 404, "not_found", "deleted")
    }

    func test_CD_103_attsSinceSendsOnlyNewerData() throws {
        let r1 = try put("doc", #"{"_attachments":{"a.txt":{"content_type":"text/plain","data":"aGVsbG8="}}}"#)
        let up = try send("PUT", "/db/doc/b.txt?rev=\(r1)", bytes: Array("world".utf8), headers: [("Content-Type", "text/plain")])
        XCTAssertEqual(up.status, 201, up.text)
        let since = json(try send("GET", "/db/doc?attachments=true&atts_since=\(pct(#"["\#(r1)"]"#))", headers: acceptJSON))
        XCTAssertEqual(since["_attachments"]?["a.txt"]?["stub"]?.boolValue, true)
        XCTAssertNil(since["_attachments"]?["a.txt"]?["data"])
        XCTAssertEqual(since["_attachments"]?["b.txt"]?["data"]?.stringValue, "d29ybGQ=")
        // atts_since alone implies attachments=true; an unrelated revision sends every attachment's data.
        let unrelated = json(try send("GET", "/db/doc?atts_since=\(pct(#"["1-\#(Self.hex("c"))"]"#))", headers: acceptJSON))
        XCTAssertEqual(unrelated["_attachments"]?["a.txt"]?["data"]?.stringValue, "aGVsbG8=")
        XCTAssertEqual(unrelated["_attachments"]?["b.txt"]?["data"]?.stringValue, "d29ybGQ=")
        assertError(try send("GET", "/db/doc?atts_since=notjson", headers: acceptJSON), 400, "bad_request")
    }
}
