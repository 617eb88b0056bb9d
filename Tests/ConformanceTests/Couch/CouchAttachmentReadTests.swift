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
                       #"{"_id":"doc","_rev":"\#(r1)","v":1,"_attachments":{"a.txt":{"content_type":"text/plain","revpos":1,"digest":"md5-iMaiC8wqiFlD2NjLTemvCQ==","data":"aGVsbG8="}}}"#)
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

    /// A replicated write keeps the `revpos` it carries, 0 when absent (§4.7). Every read that asks for data
    /// without `atts_since` sends that attachment's data like any other's (as CouchDB does: only `atts_since`
    /// turns older attachments into stubs); an `atts_since` with no revision on the path (A = 0) leaves it a stub.
    func test_CD_102_replicatedAttachmentWithoutRevposIsSentWithData() throws {
        let leaf = "2-\(Self.hex("a"))"
        let written = try send("PUT", "/db/r?new_edits=false", body: #"{"_revisions":{"start":2,"ids":["\#(Self.hex("a"))","\#(Self.hex("1"))"]},"_attachments":{"a.txt":{"content_type":"application/octet-stream","data":"aGVsbG8="}}}"#)
        XCTAssertEqual(written.status, 201, written.text)
        XCTAssertEqual(try get("/db/r")["_attachments"]?["a.txt"]?["revpos"]?.int64Value, 0)
        let read = json(try send("GET", "/db/r?attachments=true", headers: acceptJSON))
        XCTAssertEqual(read["_attachments"]?["a.txt"]?["data"]?.stringValue, "aGVsbG8=", read.serialized())
        let revs = json(try send("GET", "/db/r?open_revs=all&attachments=true", headers: acceptJSON))
        XCTAssertEqual(revs[0]?["ok"]?["_attachments"]?["a.txt"]?["data"]?.stringValue, "aGVsbG8=", revs.serialized())
        let bulk = json(try send("POST", "/db/_bulk_get?attachments=true", body: #"{"docs":[{"id":"r"}]}"#))
        XCTAssertEqual(bulk["results"]?[0]?["docs"]?[0]?["ok"]?["_attachments"]?["a.txt"]?["data"]?.stringValue, "aGVsbG8=",
                       bulk.serialized())
        let listed = json(try send("GET", "/db/_all_docs?include_docs=true&attachments=true"))
        XCTAssertEqual(listed["rows"]?[0]?["doc"]?["_attachments"]?["a.txt"]?["data"]?.stringValue, "aGVsbG8=", listed.serialized())
        let changes = json(try send("GET", "/db/_changes?include_docs=true&attachments=true"))
        XCTAssertEqual(changes["results"]?[0]?["doc"]?["_attachments"]?["a.txt"]?["data"]?.stringValue, "aGVsbG8=",
                       changes.serialized())
        let multipart = try send("GET", "/db/r?attachments=true", headers: [("Accept", "multipart/related")])
        XCTAssertTrue(multipart.header("Content-Type")?.hasPrefix("multipart/related") == true, multipart.text)
        XCTAssertTrue(multipart.text.contains("\r\n\r\nhello\r\n"), multipart.text)
        // atts_since naming a revision off the path: A = 0, and revpos 0 is not newer than that.
        let unrelated = json(try send("GET", "/db/r?atts_since=\(pct(#"["1-\#(Self.hex("c"))"]"#))", headers: acceptJSON))
        XCTAssertEqual(unrelated["_rev"]?.stringValue, leaf)
        XCTAssertEqual(unrelated["_attachments"]?["a.txt"]?["stub"]?.boolValue, true, unrelated.serialized())
    }

    /// The inline-data part of CD-139 (the rest is `CouchBulkGetTests.test_CD_139_orderDuplicatesLatestAndAttachments`).
    func test_CD_139_bulkGetInlinesData() throws {
        let r1 = try put("doc", #"{"_attachments":{"a.txt":{"content_type":"text/plain","data":"aGVsbG8="}}}"#)
        let up = try send("PUT", "/db/doc/b.txt?rev=\(r1)", bytes: Array("world".utf8), headers: [("Content-Type", "text/plain")])
        XCTAssertEqual(up.status, 201, up.text)
        let all = json(try send("POST", "/db/_bulk_get?attachments=true", body: #"{"docs":[{"id":"doc"}]}"#))
        let atts = all["results"]?[0]?["docs"]?[0]?["ok"]?["_attachments"]
        XCTAssertEqual(atts?["a.txt"]?["data"]?.stringValue, "aGVsbG8=")
        XCTAssertEqual(atts?["b.txt"]?["data"]?.stringValue, "d29ybGQ=")
        XCTAssertNil(atts?["b.txt"]?["length"])
        // An entry's atts_since sends the older attachment as a stub, the newer one with data.
        let since = json(try send("POST", "/db/_bulk_get", body: #"{"docs":[{"id":"doc","atts_since":["\#(r1)"]}]}"#))
        let partial = since["results"]?[0]?["docs"]?[0]?["ok"]?["_attachments"]
        XCTAssertEqual(partial?["a.txt"]?["stub"]?.boolValue, true)
        XCTAssertEqual(partial?["b.txt"]?["data"]?.stringValue, "d29ybGQ=")
    }

    /// `open_revs` answered as JSON carries inline data with `attachments=true` (§3.3.2).
    func testOpenRevsJSONInlinesData() throws {
        let r1 = try put("doc", #"{"_attachments":{"a.txt":{"content_type":"text/plain","data":"aGVsbG8="}}}"#)
        let r = try send("GET", "/db/doc?open_revs=all&attachments=true", headers: acceptJSON)
        XCTAssertEqual(r.status, 200, r.text)
        XCTAssertEqual(json(r)[0]?["ok"]?["_rev"]?.stringValue, r1)
        XCTAssertEqual(json(r)[0]?["ok"]?["_attachments"]?["a.txt"]?["data"]?.stringValue, "aGVsbG8=")
        let stubs = json(try send("GET", "/db/doc?open_revs=all", headers: acceptJSON))
        XCTAssertEqual(stubs[0]?["ok"]?["_attachments"]?["a.txt"]?["stub"]?.boolValue, true)
    }
}
