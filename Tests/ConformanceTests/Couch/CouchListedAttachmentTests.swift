import Foundation
import XCTest
import Core

/// Attachment data and encodings in answers that carry many documents (spec §3.6, §3.8, §3.11 with §3.5.1):
/// `_all_docs` (CD-117, CD-120), `_changes` (CD-145) and `_bulk_get` (CD-139) with `include_docs=true`,
/// `attachments=true` and `att_encoding_info=true` show each document's `_attachments` exactly as a document read
/// does (CD-102, CD-186): base64 of the identity bytes (gzip-stored data decoded), and `encoding`/`encoded_length`
/// for gzip-stored attachments when asked.
final class CouchListedAttachmentTests: CouchTestCase {
    private let acceptJSON = [("Accept", "application/json")]
    /// CouchDB's digest of a text/plain "hello": the MD5 of its gzip bytes at level 8 (25 bytes).
    static let gzipHello = "md5-iMaiC8wqiFlD2NjLTemvCQ=="
    /// The MD5 of "hello" itself: an octet-stream "hello" is stored as is.
    static let identityHello = "md5-XUFAKrxLKna5cZ2REBfFkg=="
    /// A document with a gzip-stored and an identity attachment.
    static let withBoth = #"{"v":1,"_attachments":{"a.txt":{"content_type":"text/plain","data":"aGVsbG8="},"b.bin":{"content_type":"application/octet-stream","data":"aGVsbG8="}}}"#

    static let inlineA = #"{"content_type":"text/plain","revpos":1,"digest":"\#(gzipHello)","data":"aGVsbG8="}"#
    static let inlineB = #"{"content_type":"application/octet-stream","revpos":1,"digest":"\#(identityHello)","data":"aGVsbG8="}"#
    static let inlineAInfo = #"{"content_type":"text/plain","revpos":1,"digest":"\#(gzipHello)","data":"aGVsbG8=","encoding":"gzip","encoded_length":25}"#
    static let stubA = #"{"content_type":"text/plain","revpos":1,"digest":"\#(gzipHello)","length":5,"stub":true}"#
    static let stubAInfo = #"{"content_type":"text/plain","revpos":1,"digest":"\#(gzipHello)","length":5,"stub":true,"encoding":"gzip","encoded_length":25}"#
    static let stubB = #"{"content_type":"application/octet-stream","revpos":1,"digest":"\#(identityHello)","length":5,"stub":true}"#

    /// `a` with both attachments, `n` without any.
    private func seed() throws -> String {
        let rev = try put("a", Self.withBoth)
        try put("n", #"{"v":2}"#)
        return rev
    }

    /// The `doc` of the row whose `id` is `id` in `rows`.
    private func doc(_ rows: JSON?, _ id: String) -> JSON? {
        rows?.arrayValue?.first { $0["id"]?.stringValue == id }?["doc"]
    }

    func test_CD_102_inlineDataWithAttEncodingInfo() throws {
        let rev = try seed()
        // CouchDB's couch_att:to_json writes `encoding`/`encoded_length` after `data` when both are asked for.
        XCTAssertEqual(compact(try send("GET", "/db/a?attachments=true&att_encoding_info=true", headers: acceptJSON)),
                       #"{"_id":"a","_rev":"\#(rev)","v":1,"_attachments":{"a.txt":\#(Self.inlineAInfo),"b.bin":\#(Self.inlineB)}}"#)
        XCTAssertEqual(compact(try send("GET", "/db/a?attachments=true", headers: acceptJSON)),
                       #"{"_id":"a","_rev":"\#(rev)","v":1,"_attachments":{"a.txt":\#(Self.inlineA),"b.bin":\#(Self.inlineB)}}"#)
        // open_revs as JSON: the same members, data and stubs alike.
        let open = json(try send("GET", "/db/a?open_revs=all&attachments=true&att_encoding_info=true", headers: acceptJSON))
        XCTAssertEqual(open[0]?["ok"]?["_attachments"]?.serialized(), #"{"a.txt":\#(Self.inlineAInfo),"b.bin":\#(Self.inlineB)}"#)
        let rev2 = try put("a", #"{"_rev":"\#(rev)","_attachments":{"a.txt":{"stub":true},"b.bin":{"stub":true},"c.json":{"content_type":"application/json","data":"e30="}}}"#)
        let since = json(try send("GET", "/db/a?open_revs=all&attachments=true&att_encoding_info=true&atts_since=\(pct("[\"\(rev)\"]"))",
                                  headers: acceptJSON))[0]?["ok"]
        XCTAssertEqual(since?["_rev"]?.stringValue, rev2)
        XCTAssertEqual(since?["_attachments"]?["a.txt"]?.serialized(), Self.stubAInfo)
        XCTAssertEqual(since?["_attachments"]?["c.json"]?["encoding"]?.stringValue, "gzip")
        XCTAssertEqual(since?["_attachments"]?["c.json"]?["data"]?.stringValue, "e30=")
    }

    func test_CD_117_allDocsIncludeDocsWithAttachmentData() throws {
        let rev = try seed()
        let docGet = json(try send("GET", "/db/a?attachments=true", headers: acceptJSON))
        let r = try send("GET", "/db/_all_docs?include_docs=true&attachments=true")
        XCTAssertEqual(r.status, 200, r.text)
        let rows = json(r)["rows"]
        XCTAssertEqual(doc(rows, "a")?.serialized(),
                       #"{"_id":"a","_rev":"\#(rev)","v":1,"_attachments":{"a.txt":\#(Self.inlineA),"b.bin":\#(Self.inlineB)}}"#)
        XCTAssertEqual(doc(rows, "a"), docGet, "the same document as its own read with attachments=true")
        XCTAssertNil(doc(rows, "n")?["_attachments"])
        // att_encoding_info: with data, and on stubs; neither changes anything for identity attachments.
        let info = json(try send("GET", "/db/_all_docs?include_docs=true&attachments=true&att_encoding_info=true"))["rows"]
        XCTAssertEqual(doc(info, "a")?["_attachments"]?.serialized(), #"{"a.txt":\#(Self.inlineAInfo),"b.bin":\#(Self.inlineB)}"#)
        let stubs = json(try send("GET", "/db/_all_docs?include_docs=true&att_encoding_info=true"))["rows"]
        XCTAssertEqual(doc(stubs, "a")?["_attachments"]?.serialized(), #"{"a.txt":\#(Self.stubAInfo),"b.bin":\#(Self.stubB)}"#)
        let plain = json(try send("GET", "/db/_all_docs?include_docs=true"))["rows"]
        XCTAssertEqual(doc(plain, "a")?["_attachments"]?.serialized(), #"{"a.txt":\#(Self.stubA),"b.bin":\#(Self.stubB)}"#)
        // attachments=true without include_docs changes nothing; `atts_since` is not a view parameter (CouchDB
        // ignores it here), so the data still comes.
        XCTAssertNil(json(try send("GET", "/db/_all_docs?attachments=true"))["rows"]?[0]?["doc"])
        let since = json(try send("GET", "/db/_all_docs?include_docs=true&attachments=true&atts_since=\(pct("[\"\(rev)\"]"))"))["rows"]
        XCTAssertEqual(doc(since, "a")?["_attachments"]?["a.txt"]?["data"]?.stringValue, "aGVsbG8=")
        // A later revision that adds one attachment: data of both, each with its own revpos.
        let rev2 = try put("a", #"{"_rev":"\#(rev)","_attachments":{"a.txt":{"stub":true},"c.json":{"content_type":"application/json","data":"e30="}}}"#)
        let later = doc(json(try send("GET", "/db/_all_docs?include_docs=true&attachments=true&key=\"a\""))["rows"], "a")
        XCTAssertEqual(later?["_rev"]?.stringValue, rev2)
        XCTAssertEqual(later?["_attachments"]?["a.txt"]?["revpos"]?.int64Value, 1)
        XCTAssertEqual(later?["_attachments"]?["c.json"]?["revpos"]?.int64Value, 2)
        XCTAssertEqual(later?["_attachments"]?["c.json"]?["data"]?.stringValue, "e30=")
        XCTAssertEqual(later, json(try send("GET", "/db/a?attachments=true", headers: acceptJSON)))
    }

    func test_CD_120_allDocsKeysWithAttachmentData() throws {
        let rev = try seed()
        try put("gone", "{}")
        let goneRev = try get("/db/gone")["_rev"]?.stringValue ?? ""
        XCTAssertEqual(try send("DELETE", "/db/gone?rev=\(goneRev)").status, 200)
        let r = try send("POST", "/db/_all_docs?include_docs=true&attachments=true&att_encoding_info=true",
                         body: #"{"keys":["a","nope","n","gone","a"]}"#)
        XCTAssertEqual(r.status, 200, r.text)
        let rows = json(r)["rows"]?.arrayValue ?? []
        XCTAssertEqual(rows.count, 5)
        let full = #"{"_id":"a","_rev":"\#(rev)","v":1,"_attachments":{"a.txt":\#(Self.inlineAInfo),"b.bin":\#(Self.inlineB)}}"#
        XCTAssertEqual(rows.first?["doc"]?.serialized(), full)
        XCTAssertEqual(rows.last?["doc"]?.serialized(), full)
        XCTAssertEqual(rows[1].serialized(), #"{"key":"nope","error":"not_found"}"#)
        XCTAssertEqual(rows[2]["doc"]?["v"]?.int64Value, 2)
        XCTAssertEqual(rows[3]["doc"], .null)
        // The query string form of `keys` answers the same.
        let get = json(try send("GET", "/db/_all_docs?include_docs=true&attachments=true&keys=\(pct(#"["a"]"#))"))["rows"]
        XCTAssertEqual(get?[0]?["doc"]?["_attachments"]?.serialized(), #"{"a.txt":\#(Self.inlineA),"b.bin":\#(Self.inlineB)}"#)
    }

    func test_CD_145_changesIncludeDocsWithAttachmentData() throws {
        let rev = try seed()
        let docGet = json(try send("GET", "/db/a?attachments=true", headers: acceptJSON))
        let r = try send("GET", "/db/_changes?include_docs=true&attachments=true")
        XCTAssertEqual(r.status, 200, r.text)
        let results = json(r)["results"]
        XCTAssertEqual(doc(results, "a"), docGet)
        XCTAssertEqual(doc(results, "a")?["_attachments"]?.serialized(), #"{"a.txt":\#(Self.inlineA),"b.bin":\#(Self.inlineB)}"#)
        XCTAssertEqual(json(r)["last_seq"]?.int64Value, 2)
        let info = json(try send("GET", "/db/_changes?include_docs=true&attachments=true&att_encoding_info=true"))["results"]
        XCTAssertEqual(doc(info, "a")?["_attachments"]?.serialized(), #"{"a.txt":\#(Self.inlineAInfo),"b.bin":\#(Self.inlineB)}"#)
        let stubs = json(try send("GET", "/db/_changes?include_docs=true&att_encoding_info=true"))["results"]
        XCTAssertEqual(doc(stubs, "a")?["_attachments"]?.serialized(), #"{"a.txt":\#(Self.stubAInfo),"b.bin":\#(Self.stubB)}"#)
        XCTAssertEqual(doc(json(try send("GET", "/db/_changes?include_docs=true"))["results"], "a")?["_attachments"]?.serialized(),
                       #"{"a.txt":\#(Self.stubA),"b.bin":\#(Self.stubB)}"#)
        XCTAssertNil(json(try send("GET", "/db/_changes?attachments=true"))["results"]?[0]?["doc"])
        // A continuous feed carries the same document on its line.
        let continuous = try send("GET", "/db/_changes?feed=continuous&timeout=0&include_docs=true&attachments=true")
        let lines = continuous.text.split(separator: "\n").map { JSONTestText.parse(String($0)) }
        XCTAssertEqual(lines.first { $0["id"]?.stringValue == "a" }?["doc"], docGet)
        XCTAssertEqual(lines.last?["last_seq"]?.int64Value, 2)
        XCTAssertEqual(docGet["_rev"]?.stringValue, rev)
    }

    func test_CD_139_bulkGetAttachmentDataAndEncodingInfo() throws {
        let rev = try seed()
        let rev2 = try put("a", #"{"_rev":"\#(rev)","_attachments":{"a.txt":{"stub":true},"b.bin":{"stub":true},"c.bin":{"content_type":"application/octet-stream","data":"eHl6"}}}"#)
        let entries = #"{"docs":[{"id":"a"},{"id":"a","atts_since":["\#(rev)"]}]}"#
        let r = try send("POST", "/db/_bulk_get?attachments=true&att_encoding_info=true", body: entries)
        XCTAssertEqual(r.status, 200, r.text)
        let results = json(r)["results"]
        let c = #"{"content_type":"application/octet-stream","revpos":2,"digest":"md5-0W+zbwkR+HiZjBNhka9wXg==","data":"eHl6"}"#
        XCTAssertEqual(results?[0]?["docs"]?[0]?["ok"]?["_attachments"]?.serialized(),
                       #"{"a.txt":\#(Self.inlineAInfo),"b.bin":\#(Self.inlineB),"c.bin":\#(c)}"#)
        // atts_since: what the reader has goes as stubs, which say their encoding too.
        XCTAssertEqual(results?[1]?["docs"]?[0]?["ok"]?["_attachments"]?.serialized(),
                       #"{"a.txt":\#(Self.stubAInfo),"b.bin":\#(Self.stubB),"c.bin":\#(c)}"#)
        XCTAssertEqual(results?[0]?["docs"]?[0]?["ok"]?["_rev"]?.stringValue, rev2)
        // att_encoding_info alone: stubs with the encoding.
        let stubs = json(try send("POST", "/db/_bulk_get?att_encoding_info=true", body: #"{"docs":[{"id":"a","rev":"\#(rev)"}]}"#))
        XCTAssertEqual(stubs["results"]?[0]?["docs"]?[0]?["ok"]?["_attachments"]?.serialized(),
                       #"{"a.txt":\#(Self.stubAInfo),"b.bin":\#(Self.stubB)}"#)
    }
}

/// The inline data of one answer is bounded by `couch.maxAttachmentSize` (here 8 bytes): a listing whose
/// documents bring more is refused with 413 rather than built in memory, the first document always fits (as its
/// own read would), and a `_changes` feed splits its pages instead, so it still delivers every row.
final class CouchListedAttachmentLimitTests: CouchTestCase {
    override var environment: [String: String] { ["QUARTET_COUCH_MAX_ATTACHMENT_SIZE": "8"] }

    func test_CD_117_inlineDataOfAListingIsBounded() throws {
        for id in ["d1", "d2", "d3"] {
            try put(id, #"{"_attachments":{"six.bin":{"content_type":"application/octet-stream","data":"YWJjZGVm"}}}"#)
        }
        assertError(try send("GET", "/db/_all_docs?include_docs=true&attachments=true"), 413, "too_large")
        let one = try send("GET", "/db/_all_docs?include_docs=true&attachments=true&limit=1")
        XCTAssertEqual(one.status, 200, one.text)
        XCTAssertEqual(json(one)["rows"]?[0]?["doc"]?["_attachments"]?["six.bin"]?["data"]?.stringValue, "YWJjZGVm")
        // Stubs cost nothing: the listing without data is whole.
        XCTAssertEqual(json(try send("GET", "/db/_all_docs?include_docs=true&att_encoding_info=true"))["rows"]?.arrayValue?.count, 3)
        assertError(try send("POST", "/db/_bulk_get?attachments=true", body: #"{"docs":[{"id":"d1"},{"id":"d2"}]}"#),
                    413, "too_large")
        XCTAssertEqual(try send("POST", "/db/_bulk_get?attachments=true", body: #"{"docs":[{"id":"d1"}]}"#).status, 200)
        // _changes: three pages of one row each, streamed as one answer with every document's data.
        let changes = try send("GET", "/db/_changes?include_docs=true&attachments=true")
        XCTAssertEqual(changes.status, 200, changes.text)
        let results = json(changes)["results"]?.arrayValue ?? []
        XCTAssertEqual(results.map { $0["id"]?.stringValue ?? "" }, ["d1", "d2", "d3"])
        XCTAssertEqual(results.compactMap { $0["doc"]?["_attachments"]?["six.bin"]?["data"]?.stringValue }.count, 3)
        XCTAssertEqual(json(changes)["last_seq"]?.int64Value, 3)
        XCTAssertEqual(json(changes)["pending"]?.int64Value, 0)
        let limited = json(try send("GET", "/db/_changes?include_docs=true&attachments=true&limit=2"))
        XCTAssertEqual(limited["results"]?.arrayValue?.count, 2)
        XCTAssertEqual(limited["last_seq"]?.int64Value, 2)
        XCTAssertEqual(limited["pending"]?.int64Value, 1)
        // A continuous feed sends the pages one after the other; `timeout` bounds the wait for changes after
        // the backlog, so even `timeout=0` gets every page before `last_seq`.
        for timeout in [500, 0] {
            let continuous = try send("GET", "/db/_changes?feed=continuous&timeout=\(timeout)&include_docs=true&attachments=true")
            let lines = continuous.text.split(separator: "\n").map { JSONTestText.parse(String($0)) }
            XCTAssertEqual(lines.compactMap { $0["doc"]?["_attachments"]?["six.bin"]?["data"]?.stringValue }.count, 3,
                           "timeout=\(timeout)")
            XCTAssertEqual(lines.last?["last_seq"]?.int64Value, 3, "timeout=\(timeout)")
        }
    }
}
