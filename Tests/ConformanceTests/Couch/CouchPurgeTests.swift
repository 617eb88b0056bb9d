import Foundation
import XCTest
import Core

/// Checklist CD-187: `POST /{db}/_purge` (spec §3.12, P2).
final class CouchPurgeTests: CouchTestCase {
    private let x = CouchTestCase.hex("1"), a = CouchTestCase.hex("a"), f = CouchTestCase.hex("f")

    private func purge(_ body: String) throws -> TestResponse { try send("POST", "/db/_purge", body: body) }

    private func allDocIDs() throws -> [String] {
        try get("/db/_all_docs")["rows"]?.arrayValue?.compactMap { $0["id"]?.stringValue } ?? []
    }

    func test_CD_187_purgingALeafForgetsTheDocument() throws {
        let leaf = try put("a", #"{"v":1}"#)
        try put("b", "{}")
        let r = try purge(#"{"a":["\#(leaf)"]}"#)
        XCTAssertEqual(r.status, 201)
        XCTAssertEqual(compact(r), #"{"purge_seq":1,"purged":{"a":["\#(leaf)"]}}"#)
        XCTAssertEqual(try allDocIDs(), ["b"])
        assertError(try send("GET", "/db/a"), 404, "not_found", "missing")
        // Gone from the changes feed too, in every style and whatever `since`.
        for query in ["", "?style=all_docs", "?since=0&include_docs=true"] {
            let changes = try get("/db/_changes\(query)")
            XCTAssertEqual(changes["results"]?.arrayValue?.compactMap { $0["id"]?.stringValue }, ["b"], changes.serialized())
        }
        let db = try info()
        XCTAssertEqual(db["purge_seq"]?.int64Value, 1)
        XCTAssertEqual(db["doc_count"]?.int64Value, 1)
        XCTAssertEqual(db["doc_del_count"]?.int64Value, 0)
        // Its revisions are unknown again, so a replication may bring them back.
        XCTAssertEqual(compact(try send("POST", "/db/_revs_diff", body: #"{"a":["\#(leaf)"]}"#)), #"{"a":{"missing":["\#(leaf)"]}}"#)
        // Nothing purged: purge_seq stays.
        XCTAssertEqual(compact(try purge(#"{"a":["\#(leaf)"],"nope":["1-\#(a)"]}"#)), #"{"purge_seq":1,"purged":{"a":[],"nope":[]}}"#)
        // The id can be written afresh.
        XCTAssertEqual(try put("a", #"{"v":1}"#), leaf)
    }

    func test_CD_187_purgingOneLeafOfAConflictKeepsTheOther() throws {
        for leaf in [a, f] {
            XCTAssertEqual(try send("PUT", "/db/c?new_edits=false",
                                    body: #"{"_revisions":{"start":2,"ids":["\#(leaf)","\#(x)"]},"v":"\#(leaf.prefix(1))"}"#).status, 201)
        }
        let seq = try info()["update_seq"]?.int64Value ?? 0
        // The winner goes; the shared ancestor stays with the remaining leaf; a non-leaf is ignored.
        XCTAssertEqual(compact(try purge(#"{"c":["2-\#(f)","1-\#(x)"]}"#)), #"{"purge_seq":1,"purged":{"c":["2-\#(f)"]}}"#)
        let doc = try get("/db/c?conflicts=true&revs=true")
        XCTAssertEqual(doc["_rev"]?.stringValue, "2-\(a)")
        XCTAssertEqual(doc["v"]?.stringValue, "a")
        XCTAssertNil(doc["_conflicts"])
        XCTAssertEqual(doc["_revisions"]?.serialized(), #"{"start":2,"ids":["\#(a)","\#(x)"]}"#)
        XCTAssertEqual(try info()["update_seq"]?.int64Value, seq + 1)
        XCTAssertEqual(try info()["doc_count"]?.int64Value, 1)
        XCTAssertEqual(compact(try send("POST", "/db/_revs_diff", body: #"{"c":["1-\#(x)","2-\#(f)"]}"#)),
                       #"{"c":{"missing":["2-\#(f)"]}}"#)
    }

    func test_CD_187_requestErrorsAndLimits() throws {
        let many = "{" + (0...100).map { #""d\#($0)":[]"# }.joined(separator: ",") + "}"
        assertError(try purge(many), 400, "bad_request", "Exceeded maximum number of documents.")
        let revs = (1...1001).map { #""\#($0)-\#(a)""# }.joined(separator: ",")
        assertError(try purge(#"{"d":[\#(revs)]}"#), 400, "bad_request", "Exceeded maximum number of revisions.")
        assertError(try purge(#"{"d":"1-\#(a)"}"#), 400, "bad_request", "Invalid list of revisions")
        assertError(try purge(#"{"d":["bad"]}"#), 400, "bad_request", "Invalid rev format")
        assertError(try purge("[]"), 400, "bad_request", "Request body must be a JSON object")
        assertError(try send("POST", "/db/_purge", body: "{}", contentType: "text/plain"), 415, "bad_content_type")
        assertError(try send("GET", "/db/_purge"), 405, "method_not_allowed", "Only POST allowed")
        assertError(try send("POST", "/db/_purge", body: "{}", auth: .anonymous), 401, "unauthorized")
        XCTAssertEqual(try info()["purge_seq"]?.int64Value, 0)
    }
}

/// The `_purge` limits configured below their defaults.
final class CouchPurgeLimitTests: CouchTestCase {
    override var environment: [String: String] {
        ["QUARTET_COUCH_MAX_PURGE_DOCUMENTS": "2", "QUARTET_COUCH_MAX_PURGE_REVISIONS": "3"]
    }

    func test_CD_187_theConfiguredLimits() throws {
        let a = Self.hex("a")
        XCTAssertEqual(try send("POST", "/db/_purge", body: #"{"x":["1-\#(a)"],"y":[]}"#).status, 201)
        assertError(try send("POST", "/db/_purge", body: #"{"x":[],"y":[],"z":[]}"#), 400, "bad_request",
                    "Exceeded maximum number of documents.")
        assertError(try send("POST", "/db/_purge", body: #"{"x":["1-\#(a)","2-\#(a)"],"y":["3-\#(a)","4-\#(a)"]}"#), 400,
                    "bad_request", "Exceeded maximum number of revisions.")
    }
}
