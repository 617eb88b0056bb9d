import Foundation
import XCTest
import Core

/// Checklist CD-182…CD-184 (the document parts): `batch=ok`, `If-None-Match` and `If-Match` on documents
/// (spec §3.3.1, §3.3.3, §3.3.4, §5.10).
final class CouchConditionalTests: CouchTestCase {
    func test_CD_182_batchOkIsAcceptedAfterTheCommit() throws {
        let r = try send("PUT", "/db/b?batch=ok", body: #"{"v":1}"#)
        XCTAssertEqual(r.status, 202, r.text)
        XCTAssertEqual(compact(r), #"{"ok":true,"id":"b"}"#)
        XCTAssertEqual(try get("/db/b")["v"]?.int64Value, 1)
        let posted = try send("POST", "/db?batch=ok", body: #"{"_id":"p","v":2}"#)
        XCTAssertEqual(posted.status, 202)
        XCTAssertEqual(compact(posted), #"{"ok":true,"id":"p"}"#)
        XCTAssertEqual(try get("/db/p")["v"]?.int64Value, 2)
        // A conflict after validation is not reported (CouchDB's batch contract) and stores nothing.
        let conflict = try send("PUT", "/db/b?batch=ok", body: #"{"v":3}"#)
        XCTAssertEqual(conflict.status, 202)
        XCTAssertEqual(try get("/db/b")["v"]?.int64Value, 1)
        // Request errors are still answered.
        assertError(try send("PUT", "/db/c?batch=ok", body: "[1]"), 400, "bad_request", "Document must be a JSON object")
    }

    func test_CD_183_documentIfNoneMatch() throws {
        let rev = try put("doc1", #"{"a":1}"#)
        let notModified = try send("GET", "/db/doc1", headers: [("If-None-Match", "\"\(rev)\"")])
        XCTAssertEqual(notModified.status, 304)
        XCTAssertEqual(notModified.header("ETag"), "\"\(rev)\"")
        XCTAssertTrue(notModified.body.isEmpty)
        XCTAssertEqual(try send("GET", "/db/doc1", headers: [("If-None-Match", "W/\"\(rev)\"")]).status, 304)
        XCTAssertEqual(try send("HEAD", "/db/doc1", headers: [("If-None-Match", "\"\(rev)\"")]).status, 304)
        XCTAssertEqual(try send("GET", "/db/doc1?rev=\(rev)", headers: [("If-None-Match", "\"\(rev)\"")]).status, 304)
        let stale = try send("GET", "/db/doc1", headers: [("If-None-Match", "\"1-\(Self.hex("0"))\"")])
        XCTAssertEqual(stale.status, 200)
        XCTAssertEqual(json(stale)["a"]?.int64Value, 1)
        // Answers without an ETag (metadata asked for) are always sent.
        XCTAssertEqual(try send("GET", "/db/doc1?conflicts=true", headers: [("If-None-Match", "\"\(rev)\"")]).status, 200)
        let updated = try put("doc1", #"{"_rev":"\#(rev)","a":2}"#)
        XCTAssertEqual(try send("GET", "/db/doc1", headers: [("If-None-Match", "\"\(rev)\"")]).status, 200)
        XCTAssertEqual(try send("GET", "/db/doc1", headers: [("If-None-Match", "\"\(updated)\"")]).status, 304)
    }

    func test_CD_184_ifMatchNamesTheParentRevision() throws {
        let rev = try put("doc1", #"{"a":1}"#)
        let r = try send("PUT", "/db/doc1", body: #"{"a":2}"#, headers: [("If-Match", "\"\(rev)\"")])
        XCTAssertEqual(r.status, 201, r.text)
        let second = json(r)["rev"]?.stringValue ?? ""
        XCTAssertTrue(second.hasPrefix("2-"))
        assertError(try send("PUT", "/db/doc1", body: #"{"_rev":"\#(second)","a":3}"#, headers: [("If-Match", "\"\(rev)\"")]),
                    400, "bad_request", "Document rev and etag have different values")
        assertError(try send("PUT", "/db/doc1?rev=\(second)", body: #"{"a":3}"#, headers: [("If-Match", "\"\(rev)\"")]),
                    400, "bad_request", "Document rev and etag have different values")
        // Agreeing explicit revision and If-Match: fine. A stale If-Match alone: the usual 409.
        XCTAssertEqual(try send("PUT", "/db/doc1", body: #"{"_rev":"\#(second)","a":3}"#,
                                headers: [("If-Match", "\"\(second)\"")]).status, 201)
        assertError(try send("PUT", "/db/doc1", body: #"{"a":4}"#, headers: [("If-Match", "\"\(rev)\"")]), 409, "conflict")
        assertError(try send("PUT", "/db/doc1", body: "{}", headers: [("If-Match", "\"bogus\"")]), 400, "bad_request",
                    "Invalid rev format")
        let current = try get("/db/doc1")["_rev"]?.stringValue ?? ""
        assertError(try send("DELETE", "/db/doc1?rev=\(second)", headers: [("If-Match", "\"\(current)\"")]), 400, "bad_request",
                    "Document rev and etag have different values")
        let deleted = try send("DELETE", "/db/doc1", headers: [("If-Match", "\"\(current)\"")])
        XCTAssertEqual(deleted.status, 200, deleted.text)
        XCTAssertEqual(json(deleted)["ok"]?.boolValue, true)
        XCTAssertEqual(try send("GET", "/db/doc1").status, 404)
    }
}
