import Foundation
import XCTest
import Core

/// Checklist CD-140…CD-142 and CD-188: `_revs_diff` and `_missing_revs` (spec §3.9).
final class CouchRevsDiffTests: CouchTestCase {
    private let x = CouchTestCase.hex("1"), a = CouchTestCase.hex("a"), f = CouchTestCase.hex("f")

    private func diff(_ body: String, _ resource: String = "_revs_diff") throws -> TestResponse {
        try send("POST", "/db/\(resource)", body: body)
    }

    func test_CD_140_missingRevisionsAndPossibleAncestors() throws {
        let a1 = try put("a", #"{"v":1}"#)
        let b1 = try put("b", #"{"v":1}"#)
        let r = try diff(#"{"a":["\#(a1)","2-\#(f)","3-\#(f)"],"b":["\#(b1)"]}"#)
        XCTAssertEqual(r.status, 200)
        XCTAssertEqual(compact(r), #"{"a":{"missing":["2-\#(f)","3-\#(f)"],"possible_ancestors":["\#(a1)"]}}"#)
        XCTAssertEqual(compact(try diff(#"{"a":["\#(a1)"],"b":["\#(b1)"]}"#)), "{}")
        XCTAssertEqual(compact(try diff("{}")), "{}")
        // A leaf of the same or a higher generation is no possible ancestor.
        XCTAssertEqual(compact(try diff(#"{"a":["1-\#(f)"]}"#)), #"{"a":{"missing":["1-\#(f)"]}}"#)
        assertError(try send("GET", "/db/_revs_diff"), 405, "method_not_allowed", "Only POST allowed")
    }

    func test_CD_141_unknownDocumentsAndBodilessAncestors() throws {
        XCTAssertEqual(compact(try diff(#"{"x":["1-\#(a)","2-\#(f)"]}"#)), #"{"x":{"missing":["1-\#(a)","2-\#(f)"]}}"#)
        XCTAssertEqual(try send("PUT", "/db/c?new_edits=false",
                                body: #"{"_revisions":{"start":2,"ids":["\#(a)","\#(x)"]}}"#).status, 201)
        XCTAssertEqual(compact(try diff(#"{"c":["1-\#(x)","2-\#(a)"]}"#)), "{}")
        XCTAssertEqual(try send("PUT", "/db/_local/l", body: "{}").status, 201)
        XCTAssertEqual(compact(try diff(#"{"_local/l":["0-1"]}"#)), #"{"_local/l":{"missing":["0-1"]}}"#)
    }

    func test_CD_142_requestErrors() throws {
        assertError(try diff(#"{"a":"1-\#(a)"}"#), 400, "bad_request", "Invalid list of revisions")
        assertError(try diff(#"{"a":["garbage"]}"#), 400, "bad_request", "Invalid rev format")
        assertError(try diff(#"{"a":[1]}"#), 400, "bad_request", "Invalid rev format")
        assertError(try diff("[]"), 400, "bad_request", "Request body must be a JSON object")
        assertError(try send("POST", "/db/_revs_diff", body: "{}", contentType: "text/plain"), 415, "bad_content_type")
        assertError(try send("POST", "/nosuch/_revs_diff", body: "{}"), 404, "not_found", "Database does not exist.")
    }

    func test_CD_087_stemmedRevisionsAreUnknown() throws {
        XCTAssertEqual(try send("PUT", "/db/_revs_limit", body: "5").status, 200)
        var rev = try put("s", #"{"n":0}"#)
        let first = rev
        for n in 1..<10 { rev = try put("s", #"{"_rev":"\#(rev)","n":\#(n)}"#) }
        XCTAssertEqual(compact(try diff(#"{"s":["\#(first)","\#(rev)"]}"#)), #"{"s":{"missing":["\#(first)"]}}"#)
    }

    func test_CD_170_compactionKeepsRevisionIdsKnown() throws {
        let r1 = try put("doc", #"{"v":1}"#)
        let r2 = try put("doc", #"{"_rev":"\#(r1)","v":2}"#)
        let r3 = try put("doc", #"{"_rev":"\#(r2)","v":3}"#)
        let t1 = try put("gone", "{}")
        let tombstone = json(try send("DELETE", "/db/gone?rev=\(t1)"))["rev"]?.stringValue ?? ""
        let seq = try info()["update_seq"]?.int64Value
        XCTAssertEqual(try get("/db/doc?rev=\(r1)")["v"]?.int64Value, 1)
        XCTAssertEqual(try send("POST", "/db/_compact", body: "").status, 202)
        let deadline = Date().addingTimeInterval(10)
        while try info()["compact_running"]?.boolValue == true, Date() < deadline { usleep(20_000) }
        assertError(try send("GET", "/db/doc?rev=\(r1)"), 404, "not_found", "missing")
        XCTAssertEqual(compact(try diff(#"{"doc":["\#(r1)","\#(r2)","\#(r3)"],"gone":["\#(t1)","\#(tombstone)"]}"#)), "{}")
        XCTAssertEqual(try get("/db/doc")["_rev"]?.stringValue, r3)
        XCTAssertEqual(try get("/db/gone?rev=\(tombstone)")["_deleted"], .bool(true))
        XCTAssertEqual(try info()["update_seq"]?.int64Value, seq)
    }

    func test_CD_188_missingRevs() throws {
        let known = try put("a", "{}")
        let r = try diff(#"{"a":["\#(known)","9-\#(x)"],"b":["1-\#(a)"],"c":[]}"#, "_missing_revs")
        XCTAssertEqual(r.status, 200)
        XCTAssertEqual(compact(r), #"{"missing_revs":{"a":["9-\#(x)"],"b":["1-\#(a)"]}}"#)
        XCTAssertEqual(compact(try diff(#"{"a":["\#(known)"]}"#, "_missing_revs")), #"{"missing_revs":{}}"#)
        assertError(try diff(#"{"a":5}"#, "_missing_revs"), 400, "bad_request", "Invalid list of revisions")
    }
}
