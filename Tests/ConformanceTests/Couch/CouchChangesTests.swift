import Foundation
import XCTest
import Core

/// Checklist CD-143…CD-151 and CD-159: `_changes` rows, options and errors of `feed=normal` (spec §3.11.1–3.11.3).
final class CouchChangesTests: CouchTestCase {
    private let a = CouchTestCase.hex("a"), f = CouchTestCase.hex("f"), x = CouchTestCase.hex("1")

    /// `GET /db/_changes{query}` as JSON, expecting 200.
    private func changes(_ query: String = "", file: StaticString = #filePath, line: UInt = #line) throws -> JSON {
        try get("/db/_changes" + query, file: file, line: line)
    }

    private func ids(_ feed: JSON) -> [String] {
        feed["results"]?.arrayValue?.compactMap { $0["id"]?.stringValue } ?? []
    }

    private func seqs(_ feed: JSON) -> [Int64] {
        feed["results"]?.arrayValue?.compactMap { $0["seq"]?.int64Value } ?? []
    }

    /// A document `id` with two conflicting leaves, `2-fff…` (the winner) and `2-aaa…`, under `1-111…`.
    private func conflicted(_ id: String) throws {
        for leaf in [a, f] {
            let r = try send("PUT", "/db/\(id)?new_edits=false",
                             body: #"{"_revisions":{"start":2,"ids":["\#(leaf)","\#(x)"]},"v":"\#(leaf.prefix(1))"}"#)
            XCTAssertEqual(r.status, 201, r.text)
        }
    }

    func test_CD_143_oneWriteGivesOneRowWithNumericSequences() throws {
        try put("a", #"{"a":1}"#)
        let r = try send("GET", "/db/_changes")
        XCTAssertEqual(r.status, 200)
        XCTAssertEqual(r.header("Content-Type"), "application/json")
        XCTAssertEqual(compact(r), #"{"results":[{"seq":1,"id":"a","changes":[{"rev":"1-23202479633c2b380f79507a776743d5"}]}],"last_seq":1,"pending":0}"#)
        XCTAssertEqual(r.body.last, UInt8(ascii: "\n"))
        // A fresh database: no rows, last_seq 0.
        try send("PUT", "/empty")
        XCTAssertEqual(compact(try send("GET", "/empty/_changes")), #"{"results":[],"last_seq":0,"pending":0}"#)
        assertError(try send("GET", "/nosuch/_changes"), 404, "not_found", "Database does not exist.")
        assertError(try send("GET", "/db/_changes", auth: .anonymous), 401, "unauthorized")
        let put = try send("PUT", "/db/_changes", body: "{}")
        assertError(put, 405, "method_not_allowed", "Only GET,HEAD,POST allowed")
        XCTAssertEqual(put.header("Allow"), "GET,HEAD,POST")
    }

    func test_CD_143_aFeedLongerThanOnePageStreamsEveryRowOnce() throws {
        // More rows than one page of the server's reads (500): the answer streams page after page.
        let server = self.server!
        let auth = Self.basic("admin", Self.password)
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            for i in stride(from: worker, to: 1100, by: 8) {
                _ = try? server.request("PUT", "/couch/db/d\(i)", headers: [("Authorization", auth),
                                                                              ("Content-Type", "application/json")],
                                        body: #"{"i":\#(i)}"#)
            }
        }
        let r = try send("GET", "/db/_changes")
        XCTAssertEqual(r.header("Transfer-Encoding"), "chunked")
        let feed = json(r)
        XCTAssertEqual(seqs(feed), Array(1...1100))
        XCTAssertEqual(Set(ids(feed)).count, 1100)
        XCTAssertEqual(feed["last_seq"]?.int64Value, 1100)
        XCTAssertEqual(feed["pending"]?.int64Value, 0)
        let limited = try changes("?limit=700&since=100")
        XCTAssertEqual(seqs(limited), Array(101...800))
        XCTAssertEqual(limited["last_seq"]?.int64Value, 800)
        XCTAssertEqual(limited["pending"]?.int64Value, 300)
    }

    func test_CD_144_aDocumentAppearsOnceAtItsLatestSequence() throws {
        let rev = try put("a", #"{"v":1}"#)
        try put("b", #"{"v":1}"#)
        let rev2 = try put("a", #"{"_rev":"\#(rev)","v":2}"#)
        let feed = try changes()
        XCTAssertEqual(ids(feed), ["b", "a"])
        XCTAssertEqual(seqs(feed), [2, 3])
        XCTAssertEqual(feed["results"]?[1]?["changes"]?.serialized(), #"[{"rev":"\#(rev2)"}]"#)
        XCTAssertEqual(feed["last_seq"]?.int64Value, 3)
    }

    func test_CD_145_deletedRowsTombstonesAndConflicts() throws {
        let rev = try put("t", #"{"v":1}"#)
        let del = json(try send("DELETE", "/db/t?rev=\(rev)"))["rev"]?.stringValue ?? ""
        try conflicted("c")
        let plain = try changes()
        XCTAssertEqual(plain["results"]?[0]?.serialized(), #"{"seq":2,"id":"t","changes":[{"rev":"\#(del)"}],"deleted":true}"#)
        XCTAssertNil(plain["results"]?[1]?["deleted"])
        XCTAssertNil(plain["results"]?[1]?["doc"])
        let docs = try changes("?include_docs=true")
        XCTAssertEqual(docs["results"]?[0]?["doc"]?.serialized(), #"{"_id":"t","_rev":"\#(del)","_deleted":true}"#)
        XCTAssertEqual(docs["results"]?[1]?["doc"]?.serialized(), #"{"_id":"c","_rev":"2-\#(f)","v":"f"}"#)
        let withConflicts = try changes("?include_docs=true&conflicts=true")
        XCTAssertEqual(withConflicts["results"]?[1]?["doc"]?.serialized(),
                       #"{"_id":"c","_rev":"2-\#(f)","v":"f","_conflicts":["2-\#(a)"]}"#)
        // `conflicts` alone adds nothing to the rows.
        XCTAssertEqual(try changes("?conflicts=true").serialized(), plain.serialized())
    }

    func test_CD_146_sinceNumbersQuotedNumbersAndNow() throws {
        for id in ["a", "b", "c"] { try put(id, "{}") }
        XCTAssertEqual(ids(try changes("?since=2")), ["c"])
        XCTAssertEqual(try changes("?since=now").serialized(), #"{"results":[],"last_seq":3,"pending":0}"#)
        XCTAssertEqual(try changes("?since=%222%22").serialized(), try changes("?since=2").serialized())
        XCTAssertEqual(try changes("?since=3").serialized(), #"{"results":[],"last_seq":3,"pending":0}"#)
        // Beyond update_seq: accepted (the issue's decision), and the feed stands there.
        XCTAssertEqual(try changes("?since=9").serialized(), #"{"results":[],"last_seq":9,"pending":0}"#)
        for bad in ["abc", "-1", "1.5", "%22x%22", ""] {
            assertError(try send("GET", "/db/_changes?since=\(bad)"), 400, "bad_request",
                        "Malformed sequence supplied in 'since' parameter.")
        }
    }

    /// CouchDB reads `last-event-id` as `since` on every feed, the later of the two in the query winning;
    /// aiocouch's `changes(last_event_id:)` polls the normal feed with it.
    func test_CD_146_lastEventIDParameterIsSince() throws {
        for id in ["a", "b", "c"] { try put(id, "{}") }
        XCTAssertEqual(ids(try changes("?last-event-id=2")), ["c"])
        XCTAssertEqual(ids(try changes("?feed=normal&since=0&last-event-id=1")), ["b", "c"])
        XCTAssertEqual(ids(try changes("?last-event-id=1&since=2")), ["c"])
        XCTAssertEqual(ids(try changes("?feed=longpoll&last-event-id=1")), ["b", "c"])
        assertError(try send("GET", "/db/_changes?last-event-id=x"), 400, "bad_request",
                    "Malformed sequence supplied in 'since' parameter.")
    }

    func test_CD_147_limitAndDescending() throws {
        for id in ["a", "b", "c"] { try put(id, "{}") }
        let one = try changes("?limit=1")
        XCTAssertEqual(ids(one), ["a"])
        XCTAssertEqual(one["last_seq"]?.int64Value, 1)
        XCTAssertEqual(one["pending"]?.int64Value, 2)
        XCTAssertEqual(ids(try changes("?limit=0")), ["a"])
        let newest = try changes("?descending=true")
        XCTAssertEqual(ids(newest), ["c", "b", "a"])
        XCTAssertEqual(newest["last_seq"]?.int64Value, 1)
        XCTAssertEqual(newest["pending"]?.int64Value, 0)
        let newestOne = try changes("?descending=true&limit=1")
        XCTAssertEqual(ids(newestOne), ["c"])
        XCTAssertEqual(newestOne["last_seq"]?.int64Value, 3)
        XCTAssertEqual(newestOne["pending"]?.int64Value, 2)
        XCTAssertEqual(try changes("?limit=2&since=1")["last_seq"]?.int64Value, 3)
        for bad in ["-1", "x"] { XCTAssertEqual(try send("GET", "/db/_changes?limit=\(bad)").status, 400) }
    }

    func test_CD_148_styleAllDocsListsEveryLeafWinnerFirst() throws {
        try conflicted("c")
        XCTAssertEqual(try changes("?style=all_docs")["results"]?[0]?["changes"]?.serialized(),
                       #"[{"rev":"2-\#(f)"},{"rev":"2-\#(a)"}]"#)
        XCTAssertEqual(try changes()["results"]?[0]?["changes"]?.serialized(), #"[{"rev":"2-\#(f)"}]"#)
        XCTAssertEqual(try changes("?style=main_only")["results"]?[0]?["changes"]?.serialized(), #"[{"rev":"2-\#(f)"}]"#)
        // A deleted leaf is listed too.
        XCTAssertEqual(try send("DELETE", "/db/c?rev=2-\(a)").status, 200)
        let leaves = try changes("?style=all_docs")["results"]?[0]?["changes"]?.arrayValue?.compactMap { $0["rev"]?.stringValue }
        XCTAssertEqual(leaves?.count, 2)
        XCTAssertEqual(leaves?.first, "2-\(f)")
        XCTAssertEqual(try send("GET", "/db/_changes?style=bogus").status, 400)
    }

    func test_CD_149_docIdsFilterInTheQueryOrThePostBody() throws {
        for id in ["a", "b"] { try put(id, "{}") }
        let expected = #"{"results":[{"seq":1,"id":"a","changes":[{"rev":"1-967a00dff5e02add41819138abb3284d"}]}],"last_seq":2,"pending":0}"#
        XCTAssertEqual(try changes("?filter=_doc_ids&doc_ids=\(pct(#"["a"]"#))").serialized(), expected)
        let posted = try send("POST", "/db/_changes?filter=_doc_ids", body: #"{"doc_ids":["a"]}"#)
        XCTAssertEqual(posted.status, 200, posted.text)
        XCTAssertEqual(compact(posted), expected)
        // Unknown ids match nothing; the feed still reports where it stands.
        XCTAssertEqual(try changes("?filter=_doc_ids&doc_ids=\(pct(#"["zz"]"#))").serialized(),
                       #"{"results":[],"last_seq":2,"pending":0}"#)
        let reason = "`doc_ids` filter parameter is not a list of doc ids."
        assertError(try send("GET", "/db/_changes?filter=_doc_ids&doc_ids=\(pct("[1]"))"), 400, "bad_request", reason)
        assertError(try send("GET", "/db/_changes?filter=_doc_ids"), 400, "bad_request", reason)
        assertError(try send("POST", "/db/_changes?filter=_doc_ids", body: "{}"), 400, "bad_request", reason)
        assertError(try send("POST", "/db/_changes?filter=_doc_ids", body: #"{"doc_ids":"a"}"#), 400, "bad_request", reason)
        assertError(try send("POST", "/db/_changes", body: "[]"), 400, "bad_request", "Request body must be a JSON object")
        assertError(try send("POST", "/db/_changes", body: "{"), 400, "bad_request", "invalid UTF-8 JSON")
    }

    func test_CD_150_designFilterAndUnsupportedFilters() throws {
        try put("a", "{}")
        try put("_design/x", "{}")
        XCTAssertEqual(ids(try changes("?filter=_design")), ["_design/x"])
        for name in ["_selector", "_view", "d/f"] {
            assertError(try send("GET", "/db/_changes?filter=\(pct(name))"), 400, "bad_request")
        }
        assertError(try send("GET", "/db/_changes?filter=_bogus"), 400, "bad_request", "unknown builtin filter name")
    }

    func test_CD_151_feedHeartbeatAndSeqIntervalValidation() throws {
        assertError(try send("GET", "/db/_changes?feed=bogus"), 400, "bad_request",
                    "Supported `feed` types: normal, continuous, live, longpoll, eventsource")
        assertError(try send("GET", "/db/_changes?feed=continuous&heartbeat=-5"), 400, "bad_request",
                    "The heartbeat value should be a positive integer (in milliseconds).")
        assertError(try send("GET", "/db/_changes?feed=continuous&heartbeat=0"), 400, "bad_request",
                    "The heartbeat value should be a positive integer (in milliseconds).")
        assertError(try send("GET", "/db/_changes?feed=continuous&heartbeat=abc"), 400, "bad_request",
                    "Invalid heartbeat value. Expecting a positive integer value (in milliseconds).")
        assertError(try send("GET", "/db/_changes?seq_interval=0"), 400, "bad_request", "invalid_seq_interval")
        assertError(try send("GET", "/db/_changes?seq_interval=x"), 400, "bad_request", "invalid_seq_interval")
        assertError(try send("GET", "/db/_changes?timeout=-1"), 400, "bad_request")
        XCTAssertEqual(try send("GET", "/db/_changes?seq_interval=100").status, 200)
        // Parameters the server does not use are ignored.
        XCTAssertEqual(try send("GET", "/db/_changes?active_only=true&_nonce=1&update_seq=true").status, 200)
    }

    func test_CD_159_postNeedsJSONAndIgnoresParametersInTheBody() throws {
        for id in ["a", "b", "c", "d", "e", "f"] { try put(id, "{}") }
        assertError(try send("POST", "/db/_changes", body: "{}", contentType: "text/plain"), 415, "bad_content_type",
                    "Content-Type must be application/json")
        let r = try send("POST", "/db/_changes",
                         body: #"{"feed":"normal","since":5,"style":"all_docs","limit":1,"filter":"_design"}"#)
        XCTAssertEqual(r.status, 200, r.text)
        XCTAssertEqual(ids(json(r)), ["a", "b", "c", "d", "e", "f"])
        // An empty body is allowed.
        XCTAssertEqual(ids(json(try send("POST", "/db/_changes?since=5", bytes: []))), ["f"])
    }

    func test_CD_073_aRecreatedDocumentIsListedOnce() throws {
        let rev = try put("doc1", #"{"a":1}"#)
        XCTAssertEqual(try send("DELETE", "/db/doc1?rev=\(rev)").status, 200)
        let again = try put("doc1", #"{"a":2}"#)
        let feed = try changes()
        XCTAssertEqual(ids(feed), ["doc1"])
        XCTAssertEqual(seqs(feed), [3])
        XCTAssertEqual(feed["results"]?[0]?["changes"]?.serialized(), #"[{"rev":"\#(again)"}]"#)
        XCTAssertNil(feed["results"]?[0]?["deleted"])
    }

    func test_CD_165_localDocumentsNeverAppearInChanges() throws {
        XCTAssertEqual(try send("PUT", "/db/_local/x", body: "{}").status, 201)
        try put("a", "{}")
        XCTAssertEqual(ids(try changes()), ["a"])
        XCTAssertEqual(try changes()["last_seq"]?.int64Value, 1)
    }
}
