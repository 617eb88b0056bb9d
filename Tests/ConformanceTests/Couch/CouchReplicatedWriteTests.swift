import Foundation
import XCTest
import Core

/// Checklist CD-080…CD-088: conflicts, winners, replicated writes and stemming (spec §5.2–5.5).
final class CouchReplicatedWriteTests: CouchTestCase {
    private let a = CouchTestCase.hex("a"), b = CouchTestCase.hex("b"), c = CouchTestCase.hex("c")
    private let x = CouchTestCase.hex("1"), y = CouchTestCase.hex("2"), f = CouchTestCase.hex("f")

    /// A replicated write of `body` (with `_rev`/`_revisions`) to `id`.
    @discardableResult
    private func replicate(_ id: String, _ body: String, file: StaticString = #filePath, line: UInt = #line) throws -> TestResponse {
        let r = try send("PUT", "/db/\(id)?new_edits=false", body: body)
        XCTAssertTrue(r.status == 201 || r.status == 200, r.text, file: file, line: line)
        return r
    }

    func test_CD_080_replicatedPathsRecordAncestorsWithoutBodies() throws {
        let body = #"{"_rev":"3-\#(c)","_revisions":{"start":3,"ids":["\#(c)","\#(b)","\#(a)"]},"v":1}"#
        let r = try replicate("x", body)
        XCTAssertEqual(r.status, 201)
        XCTAssertEqual(json(r)["rev"]?.stringValue, "3-\(c)")
        XCTAssertEqual(try get("/db/x?revs_info=true")["_revs_info"]?.arrayValue?.compactMap { $0["status"]?.stringValue },
                       ["available", "missing", "missing"])
        let seq = try info()["update_seq"]?.int64Value
        XCTAssertEqual(try replicate("x", body).status, 201)
        XCTAssertEqual(try info()["update_seq"]?.int64Value, seq)
    }

    func test_CD_081_newEditsFalseNeedsARevision() throws {
        assertError(try send("PUT", "/db/x?new_edits=false", body: #"{"v":1}"#), 400, "bad_request",
                    "When `new_edits: false`, the document needs `_rev` or `_revisions` specified")
    }

    func test_CD_082_theWinnerOfTwoLiveLeaves() throws {
        try replicate("c", #"{"_revisions":{"start":2,"ids":["\#(a)","\#(x)"]},"v":"a"}"#)
        try replicate("c", #"{"_revisions":{"start":2,"ids":["\#(f)","\#(x)"]},"v":"f"}"#)
        XCTAssertEqual(try get("/db/c")["_rev"]?.stringValue, "2-\(f)")
        XCTAssertEqual(try get("/db/c?conflicts=true")["_conflicts"]?.serialized(), #"["2-\#(a)"]"#)
        let all = json(try send("GET", "/db/c?open_revs=all", headers: [("Accept", "application/json")]))
        XCTAssertEqual(all.arrayValue?.compactMap { $0["ok"]?["_rev"]?.stringValue }, ["2-\(a)", "2-\(f)"])
    }

    func test_CD_083_aLiveLeafBeatsANewerTombstone() throws {
        try replicate("d", #"{"_revisions":{"start":3,"ids":["\#(a)","\#(b)","\#(x)"]},"_deleted":true}"#)
        try replicate("d", #"{"_revisions":{"start":2,"ids":["\#(y)","\#(x)"]},"live":true}"#)
        XCTAssertEqual(try get("/db/d")["_rev"]?.stringValue, "2-\(y)")
        XCTAssertEqual(try get("/db/d?deleted_conflicts=true")["_deleted_conflicts"]?.serialized(), #"["3-\#(a)"]"#)
        XCTAssertEqual(try info()["doc_count"]?.int64Value, 1)
        XCTAssertEqual(try send("DELETE", "/db/d?rev=2-\(y)").status, 200)
        assertError(try send("GET", "/db/d"), 404, "not_found", "deleted")
        XCTAssertEqual(try info()["doc_count"]?.int64Value, 0)
        XCTAssertEqual(try info()["doc_del_count"]?.int64Value, 1)
        XCTAssertEqual(try get("/db/_all_docs")["rows"]?.arrayValue?.count, 0)
    }

    func test_CD_084_editingAndDeletingALosingLeaf() throws {
        try replicate("c", #"{"_revisions":{"start":2,"ids":["\#(a)","\#(x)"]},"v":"a"}"#)
        try replicate("c", #"{"_revisions":{"start":2,"ids":["\#(f)","\#(x)"]},"v":"f"}"#)
        let edited = try send("PUT", "/db/c", body: #"{"_rev":"2-\#(a)","v":"a3"}"#)
        XCTAssertEqual(edited.status, 201, edited.text)
        let r3 = json(edited)["rev"]?.stringValue ?? ""
        XCTAssertTrue(r3.hasPrefix("3-"), r3)
        XCTAssertEqual(try get("/db/c")["_rev"]?.stringValue, r3)
        XCTAssertEqual(try get("/db/c?conflicts=true")["_conflicts"]?.serialized(), #"["2-\#(f)"]"#)
        let deleted = try send("DELETE", "/db/c?rev=2-\(f)")
        XCTAssertEqual(deleted.status, 200)
        let tombstone = json(deleted)["rev"]?.stringValue ?? ""
        let doc = try get("/db/c?conflicts=true&deleted_conflicts=true")
        XCTAssertNil(doc["_conflicts"])
        XCTAssertEqual(doc["_deleted_conflicts"]?.serialized(), #"["\#(tombstone)"]"#)
    }

    func test_CD_085_revisionsValidation() throws {
        assertError(try send("PUT", "/db/x?new_edits=false", body: #"{"_revisions":{"start":"3","ids":["\#(a)"]}}"#),
                    400, "doc_validation", "_revisions.start isn't an integer.")
        assertError(try send("PUT", "/db/x?new_edits=false", body: #"{"_revisions":{"start":3,"ids":"x"}}"#),
                    400, "doc_validation", "_revisions.ids isn't a array.")
        assertError(try send("PUT", "/db/x?new_edits=false",
                             body: #"{"_revisions":{"start":3,"ids":["\#(String(repeating: "z", count: 32))"]}}"#),
                    400, "doc_validation", "RevId isn't a valid hexadecimal")
        assertError(try send("PUT", "/db/x?new_edits=false", body: #"{"_revisions":{"start":3,"ids":[]}}"#), 400, "doc_validation")
    }

    func test_CD_086_replicatedRevisionsAreLowercased() throws {
        let r = try replicate("u", #"{"_rev":"1-47F3268E7546965196B57572099F4372"}"#)
        XCTAssertEqual(json(r)["rev"]?.stringValue, "1-47f3268e7546965196b57572099f4372")
        XCTAssertEqual(try get("/db/u")["_rev"]?.stringValue, "1-47f3268e7546965196b57572099f4372")
    }

    func test_CD_087_stemmingToTheRevsLimit() throws {
        XCTAssertEqual(try send("PUT", "/db/_revs_limit", body: "5").status, 200)
        var rev = try put("s", #"{"n":0}"#)
        let first = rev
        for n in 1..<10 { rev = try put("s", #"{"_rev":"\#(rev)","n":\#(n)}"#) }
        XCTAssertEqual(try get("/db/s?revs=true")["_revisions"]?["ids"]?.arrayValue?.count, 5)
        // The first revision is no longer known (the _revs_diff part of this item comes with that resource).
        assertError(try send("GET", "/db/s?rev=\(first)"), 404, "not_found", "missing")
        XCTAssertEqual(json(try send("GET", "/db/s?revs_info=true"))["_revs_info"]?.arrayValue?.count, 5)
    }

    func test_CD_088_aPathOlderThanTheStemPointBecomesANewRoot() throws {
        XCTAssertEqual(try send("PUT", "/db/_revs_limit", body: "5").status, 200)
        var ids: [String] = []
        for i in 1...10 { ids.insert(String(format: "%032x", i), at: 0) }
        try replicate("t", #"{"_revisions":{"start":10,"ids":[\#(ids.map { "\"\($0)\"" }.joined(separator: ","))]}}"#)
        // A path of revisions 1…3, all stemmed away, plus a new leaf 4-{e}.
        let e = Self.hex("e")
        let old = [e] + ids.suffix(3)
        try replicate("t", #"{"_revisions":{"start":4,"ids":[\#(old.map { "\"\($0)\"" }.joined(separator: ","))]},"branch":true}"#)
        let doc = try get("/db/t?conflicts=true")
        XCTAssertEqual(doc["_rev"]?.stringValue, "10-\(ids[0])")
        XCTAssertEqual(doc["_conflicts"]?.serialized(), #"["4-\#(e)"]"#)
    }
}
