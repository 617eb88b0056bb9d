import Foundation
import XCTest
import Core

/// Checklist CD-160…CD-165: `_local` documents (spec §3.4, §5.8).
final class CouchLocalDocumentTests: CouchTestCase {
    func test_CD_160_missingThenStored() throws {
        assertError(try send("GET", "/db/_local/x"), 404, "not_found", "missing")
        XCTAssertEqual(try send("PUT", "/db/_local/x", body: #"{"a":1}"#).status, 201)
        XCTAssertEqual(compact(try send("GET", "/db/_local/x")), #"{"_id":"_local/x","_rev":"0-1","a":1}"#)
    }

    func test_CD_161_revisionNumbersFollowTheSuppliedRevision() throws {
        XCTAssertEqual(compact(try send("PUT", "/db/_local/x", body: #"{"a":1}"#)), #"{"ok":true,"id":"_local/x","rev":"0-1"}"#)
        XCTAssertEqual(json(try send("PUT", "/db/_local/x", body: #"{"_rev":"0-1","a":2}"#))["rev"]?.stringValue, "0-2")
        let stale = try send("PUT", "/db/_local/x", body: #"{"_rev":"0-1","a":3}"#)
        XCTAssertEqual(stale.status, 201)
        XCTAssertEqual(json(stale)["rev"]?.stringValue, "0-2")
        XCTAssertEqual(json(try send("PUT", "/db/_local/x", body: #"{"a":4}"#))["rev"]?.stringValue, "0-1")
        XCTAssertEqual(try get("/db/_local/x")["a"]?.int64Value, 4)
    }

    func test_CD_162_invalidRevisionsAndAttachments() throws {
        assertError(try send("PUT", "/db/_local/x", body: #"{"_rev":"1-abc"}"#), 400, "bad_request", "Invalid rev format")
        assertError(try send("PUT", "/db/_local/x", body: #"{"_attachments":{}}"#), 400, "bad_request",
                    "_local documents do not accept attachments.")
        assertError(try send("GET", "/db/_local/x"), 404, "not_found", "missing")
    }

    func test_CD_163_delete() throws {
        XCTAssertEqual(try send("PUT", "/db/_local/x", body: "{}").status, 201)
        let r = try send("DELETE", "/db/_local/x")
        XCTAssertEqual(r.status, 200)
        XCTAssertEqual(compact(r), #"{"ok":true,"id":"_local/x","rev":"0-0"}"#)
        assertError(try send("GET", "/db/_local/x"), 404, "not_found", "missing")
        assertError(try send("DELETE", "/db/_local/nosuch"), 404, "not_found", "missing")
        // `_deleted: true` in a PUT deletes exactly like DELETE.
        XCTAssertEqual(try send("PUT", "/db/_local/y", body: "{}").status, 201)
        XCTAssertEqual(try send("PUT", "/db/_local/y", body: #"{"_deleted":true}"#).status, 200)
        assertError(try send("GET", "/db/_local/y"), 404, "not_found", "missing")
    }

    func test_CD_164_localPathsAndEncodedSlashes() throws {
        assertError(try send("GET", "/db/_local"), 400, "bad_request", "Invalid _local document id.")
        assertError(try send("GET", "/db/_local%2F"), 400, "bad_request", "Invalid _local document id.")
        XCTAssertEqual(try send("PUT", "/db/_local%2Fy", body: #"{"v":1}"#).status, 201)
        XCTAssertEqual(try get("/db/_local/y")["v"]?.int64Value, 1)
        assertError(try send("PUT", "/db/_local/x/att", body: "{}"), 400, "bad_request", "_local documents do not accept attachments.")
    }

    func test_CD_165_localDocumentsStayOutOfCountsAndSequences() throws {
        try put("real", "{}")
        for i in 0..<3 { XCTAssertEqual(try send("PUT", "/db/_local/c\(i)", body: "{}").status, 201) }
        XCTAssertEqual(try send("DELETE", "/db/_local/c0").status, 200)
        let db = try info()
        XCTAssertEqual(db["doc_count"]?.int64Value, 1)
        XCTAssertEqual(db["update_seq"]?.int64Value, 1)
        XCTAssertEqual(try get("/db/_all_docs")["rows"]?.arrayValue?.compactMap { $0["id"]?.stringValue }, ["real"])
        XCTAssertEqual(try get("/db/_local_docs")["rows"]?.arrayValue?.compactMap { $0["id"]?.stringValue },
                       ["_local/c1", "_local/c2"])
        // _changes is checked with that resource; see docs/conformance/couch.md.
    }

    /// `POST /db` with a `_local/` id writes a local document, never a replicated one; COPY to one is refused.
    func testLocalIdsThroughPostAndCopy() throws {
        let r = try send("POST", "/db", body: #"{"_id":"_local/p","v":1}"#)
        XCTAssertEqual(r.status, 201, r.text)
        XCTAssertEqual(compact(r), #"{"ok":true,"id":"_local/p","rev":"0-1"}"#)
        XCTAssertEqual(try get("/db/_local/p")["v"]?.int64Value, 1)
        XCTAssertEqual(try info()["doc_count"]?.int64Value, 0)
        try put("src", "{}")
        assertError(try send("COPY", "/db/src", headers: [("Destination", "_local/c")]), 400, "bad_request")
    }
}
