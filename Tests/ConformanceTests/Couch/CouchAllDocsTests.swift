import Foundation
import XCTest
import Core

/// Checklist CD-116…CD-123: `_all_docs`, `_design_docs` and `_local_docs` (spec §3.6).
final class CouchAllDocsTests: CouchTestCase {
    /// The ids of a listing's rows.
    private func ids(_ listing: JSON) -> [String] { listing["rows"]?.arrayValue?.compactMap { $0["id"]?.stringValue } ?? [] }

    /// Documents `a` … `e` with bodies `{"n":i}`.
    private func letters() throws {
        for (i, id) in ["a", "b", "c", "d", "e"].enumerated() { try put(id, #"{"n":\#(i)}"#) }
    }

    func test_CD_116_byteOrderWithoutDeletedOrLocalDocuments() throws {
        var revs: [String: String] = [:]
        for id in ["B", "a", "_design/x", "é", "gone"] { revs[id] = try put(pct(id), "{}") }
        XCTAssertEqual(try send("DELETE", "/db/gone?rev=\(revs["gone"] ?? "")").status, 200)
        XCTAssertEqual(try send("PUT", "/db/_local/l", body: "{}").status, 201)
        let r = try send("GET", "/db/_all_docs")
        XCTAssertEqual(r.status, 200)
        XCTAssertEqual(r.header("Content-Type"), "application/json")
        let listing = json(r)
        XCTAssertEqual(listing.objectValue?.keys, ["total_rows", "offset", "rows"])
        XCTAssertEqual(listing["total_rows"]?.int64Value, 4)
        XCTAssertEqual(listing["offset"]?.int64Value, 0)
        XCTAssertEqual(ids(listing), ["B", "_design/x", "a", "é"])
        XCTAssertEqual(listing["rows"]?[0]?.serialized(), #"{"id":"B","key":"B","value":{"rev":"\#(revs["B"] ?? "")"}}"#)
        XCTAssertEqual(try send("HEAD", "/db/_all_docs").status, 200)
        assertError(try send("PUT", "/db/_all_docs", body: "{}"), 405, "method_not_allowed", "Only GET,HEAD,POST allowed")
        assertError(try send("GET", "/nosuch/_all_docs"), 404, "not_found", "Database does not exist.")
        assertError(try send("GET", "/db/_all_docs", auth: .anonymous), 401, "unauthorized")
    }

    func test_CD_117_includeDocsAndConflicts() throws {
        try letters()
        let x = Self.hex("1"), a = Self.hex("a"), f = Self.hex("f")
        for leaf in [a, f] {
            XCTAssertEqual(try send("PUT", "/db/k?new_edits=false",
                                    body: #"{"_revisions":{"start":2,"ids":["\#(leaf)","\#(x)"]},"v":"\#(leaf.prefix(1))"}"#).status, 201)
        }
        let listing = try get("/db/_all_docs?include_docs=true")
        let rows = listing["rows"]?.arrayValue ?? []
        XCTAssertEqual(rows.count, 6)
        XCTAssertEqual(rows[0]["doc"]?.serialized(), #"{"_id":"a","_rev":"\#(rows[0]["value"]?["rev"]?.stringValue ?? "")","n":0}"#)
        XCTAssertTrue(rows.allSatisfy { $0["doc"]?["_id"] == $0["id"] })
        XCTAssertNil(rows[5]["doc"]?["_conflicts"])
        let withConflicts = try get("/db/_all_docs?include_docs=true&conflicts=true")["rows"]?.arrayValue ?? []
        XCTAssertEqual(withConflicts[5]["doc"]?["_rev"]?.stringValue, "2-\(f)")
        XCTAssertEqual(withConflicts[5]["doc"]?["_conflicts"]?.serialized(), #"["2-\#(a)"]"#)
        XCTAssertNil(withConflicts[0]["doc"]?["_conflicts"])
        XCTAssertNil(try get("/db/_all_docs")["rows"]?[0]?["doc"])
    }

    func test_CD_118_rangesDirectionSkipAndLimit() throws {
        try letters()
        XCTAssertEqual(ids(try get(#"/db/_all_docs?startkey="b"&endkey="d""#)), ["b", "c", "d"])
        XCTAssertEqual(ids(try get(#"/db/_all_docs?start_key="b"&end_key="d"&inclusive_end=false"#)), ["b", "c"])
        let reverse = try get(#"/db/_all_docs?descending=true&startkey="d"&endkey="b""#)
        XCTAssertEqual(ids(reverse), ["d", "c", "b"])
        XCTAssertEqual(reverse["offset"]?.int64Value, 1)
        XCTAssertEqual(ids(try get(#"/db/_all_docs?descending=true&startkey="d"&endkey="b"&inclusive_end=false"#)), ["d", "c"])
        let page = try get("/db/_all_docs?skip=1&limit=1")
        XCTAssertEqual(ids(page), ["b"])
        XCTAssertEqual(page["offset"]?.int64Value, 1)
        let later = try get(#"/db/_all_docs?startkey="c"&skip=1&limit=2"#)
        XCTAssertEqual(ids(later), ["d", "e"])
        XCTAssertEqual(later["offset"]?.int64Value, 3)
        XCTAssertEqual(later["total_rows"]?.int64Value, 5)
        XCTAssertEqual(ids(try get(#"/db/_all_docs?key="c""#)), ["c"])
        XCTAssertEqual(ids(try get("/db/_all_docs?limit=0")), [])
        // A key that is not a string sorts before every id.
        XCTAssertEqual(ids(try get("/db/_all_docs?startkey=1&limit=1")), ["a"])
        XCTAssertEqual(ids(try get("/db/_all_docs?endkey=1")), [])
        XCTAssertEqual(ids(try get("/db/_all_docs?descending=true&endkey=null&limit=1")), ["e"])
        XCTAssertEqual(try get("/db/_all_docs?descending=true&startkey=[]")["offset"]?.int64Value, 5)
        // Accepted and without effect.
        XCTAssertEqual(ids(try get(#"/db/_all_docs?stale=ok&update=false&startkey_docid="x"&sorted=true&limit=1"#)), ["a"])
    }

    func test_CD_119_keysWithDeletedAndMissingDocuments() throws {
        let a = try put("a", #"{"v":1}"#)
        let gone = try put("deleted", "{}")
        let tombstone = json(try send("DELETE", "/db/deleted?rev=\(gone)"))["rev"]?.stringValue ?? ""
        let keys = pct(#"["a","deleted","nope","a",7]"#)
        let listing = try get("/db/_all_docs?keys=\(keys)")
        XCTAssertEqual(listing["total_rows"]?.int64Value, 1)
        XCTAssertEqual(listing["offset"], .null)
        XCTAssertEqual(listing["rows"]?.serialized(), """
            [{"id":"a","key":"a","value":{"rev":"\(a)"}},\
            {"id":"deleted","key":"deleted","value":{"rev":"\(tombstone)","deleted":true}},\
            {"key":"nope","error":"not_found"},\
            {"id":"a","key":"a","value":{"rev":"\(a)"}},\
            {"key":7,"error":"not_found"}]
            """)
        let docs = try get("/db/_all_docs?include_docs=true&keys=\(keys)")["rows"]?.arrayValue ?? []
        XCTAssertEqual(docs[0]["doc"]?.serialized(), #"{"_id":"a","_rev":"\#(a)","v":1}"#)
        XCTAssertEqual(docs[1]["doc"], .null)
        XCTAssertNotNil(docs[1].objectValue?["doc"])
        XCTAssertNil(docs[2]["doc"])
        let reversed = try get("/db/_all_docs?descending=true&skip=1&limit=2&keys=\(keys)")["rows"]?.arrayValue ?? []
        XCTAssertEqual(reversed.map { $0["key"]?.serialized() ?? "" }, [#""a""#, #""nope""#])
    }

    func test_CD_120_postWithKeysAndBodyErrors() throws {
        let a = try put("a", "{}")
        let r = try send("POST", "/db/_all_docs", body: #"{"keys":["a","b"]}"#)
        XCTAssertEqual(r.status, 200)
        XCTAssertEqual(json(r)["rows"]?.serialized(), #"[{"id":"a","key":"a","value":{"rev":"\#(a)"}},{"key":"b","error":"not_found"}]"#)
        XCTAssertEqual(ids(json(try send("POST", "/db/_all_docs?include_docs=true", body: #"{"keys":["a"]}"#))), ["a"])
        // Other parameters may come in the body too, with their JSON types.
        XCTAssertEqual(json(try send("POST", "/db/_all_docs", body: #"{"include_docs":true,"limit":1}"#))["rows"]?[0]?["doc"]?["_id"]?.stringValue, "a")
        assertError(try send("POST", "/db/_all_docs", body: "[]"), 400, "bad_request", "Request body must be a JSON object")
        assertError(try send("POST", "/db/_all_docs", body: #"{"keys":1}"#), 400, "bad_request", "`keys` body member must be an array.")
        assertError(try send("GET", "/db/_all_docs?keys=1"), 400, "bad_request", "`keys` parameter must be an array.")
        assertError(try send("GET", "/db/_all_docs?keys=%5B"), 400, "bad_request", "invalid UTF-8 JSON")
        assertError(try send("POST", "/db/_all_docs", body: #"{"keys":["a"]}"#, contentType: "text/plain"), 415, "bad_content_type",
                    "Content-Type must be application/json")
        assertError(try send("POST", "/db/_all_docs", body: #"{"keys":["a"],"keys":["b"]}"#), 400, "bad_request",
                    "Duplicate key in JSON object.")
    }

    func test_CD_121_theQueryStringWinsOverTheBody() throws {
        try put("a", "{}")
        try put("b", "{}")
        let r = try send("POST", "/db/_all_docs?limit=0", body: #"{"keys":["a","b"],"limit":2}"#)
        XCTAssertEqual(r.status, 200)
        XCTAssertEqual(json(r)["rows"]?.arrayValue?.count, 0)
        XCTAssertEqual(json(try send("POST", "/db/_all_docs", body: #"{"keys":["a","b"],"limit":1}"#))["rows"]?.arrayValue?.count, 1)
    }

    func test_CD_122_parameterErrors() throws {
        assertError(try send("GET", "/db/_all_docs?limit=-1"), 400, "query_parse_error", "Invalid value for positive integer: \"-1\"")
        assertError(try send("GET", "/db/_all_docs?skip=-2"), 400, "query_parse_error", "Invalid value for positive integer: \"-2\"")
        assertError(try send("GET", "/db/_all_docs?limit=x"), 400, "query_parse_error", "Invalid value for integer: \"x\"")
        assertError(try send("GET", "/db/_all_docs?include_docs=maybe"), 400, "query_parse_error", "Invalid boolean parameter: \"maybe\"")
        assertError(try send("GET", "/db/_all_docs?descending=1"), 400, "query_parse_error", "Invalid boolean parameter: \"1\"")
        assertError(try send("GET", #"/db/_all_docs?keys=["a"]&startkey="a""#.replacingOccurrences(of: "\"", with: "%22")
                                .replacingOccurrences(of: "[", with: "%5B").replacingOccurrences(of: "]", with: "%5D")),
                    400, "query_parse_error", "`keys` is incompatible with `key`, `start_key` and `end_key`")
        assertError(try send("POST", "/db/_all_docs", body: #"{"keys":["a"],"key":"a"}"#), 400, "query_parse_error",
                    "`keys` is incompatible with `key`, `start_key` and `end_key`")
        assertError(try send("GET", "/db/_all_docs?startkey=%7Bx"), 400, "bad_request", "invalid UTF-8 JSON")
        assertError(try send("GET", "/db/_all_docs?reduce=true"), 400, "query_parse_error")
        assertError(try send("GET", "/db/_all_docs?group=true"), 400, "query_parse_error")
        assertError(try send("GET", "/db/_all_docs?group_level=1"), 400, "query_parse_error")
        XCTAssertEqual(try send("GET", "/db/_all_docs?reduce=false").status, 200)
    }

    func test_CD_123_updateSeqDesignDocsAndLocalDocs() throws {
        try put("a", "{}")
        try put("_design/one", "{}")
        try put("_design/two", "{}")
        try put("z", "{}")
        let withSeq = try get("/db/_all_docs?update_seq=true")
        XCTAssertEqual(withSeq.objectValue?.keys, ["total_rows", "offset", "update_seq", "rows"])
        XCTAssertEqual(withSeq["update_seq"]?.int64Value, 4)
        let design = try get("/db/_design_docs")
        XCTAssertEqual(ids(design), ["_design/one", "_design/two"])
        XCTAssertEqual(design["total_rows"]?.int64Value, 2)
        XCTAssertEqual(ids(try get("/db/_design_docs?descending=true&limit=1")), ["_design/two"])
        XCTAssertEqual(try get(#"/db/_design_docs?startkey="_design/p""#)["offset"]?.int64Value, 1)
        for (name, n) in [("x", 1), ("y", 2)] {
            XCTAssertEqual(try send("PUT", "/db/_local/\(name)", body: #"{"n":\#(n)}"#).status, 201)
        }
        XCTAssertEqual(try send("PUT", "/db/_local/x", body: #"{"_rev":"0-1","n":1}"#).status, 201)
        let local = try get("/db/_local_docs")
        XCTAssertEqual(local["total_rows"], .null)
        XCTAssertEqual(local["offset"], .null)
        XCTAssertEqual(local["rows"]?.serialized(), #"[{"id":"_local/x","key":"_local/x","value":{"rev":"0-2"}},{"id":"_local/y","key":"_local/y","value":{"rev":"0-1"}}]"#)
        XCTAssertEqual(try get("/db/_local_docs?include_docs=true&descending=true")["rows"]?[0]?["doc"]?.serialized(),
                       #"{"_id":"_local/y","_rev":"0-1","n":2}"#)
        XCTAssertEqual(json(try send("POST", "/db/_local_docs", body: #"{"keys":["_local/y","_local/q"]}"#))["rows"]?.serialized(),
                       #"[{"id":"_local/y","key":"_local/y","value":{"rev":"0-1"}},{"key":"_local/q","error":"not_found"}]"#)
        // CD-165: local documents stay out of _all_docs.
        XCTAssertEqual(ids(try get("/db/_all_docs")), ["_design/one", "_design/two", "a", "z"])
    }
}
