import Foundation
import XCTest
import Core

/// Checklist CD-135…CD-139: `POST /{db}/_bulk_get` (spec §3.8).
final class CouchBulkGetTests: CouchTestCase {
    private let x = CouchTestCase.hex("1"), a = CouchTestCase.hex("a"), f = CouchTestCase.hex("f")

    private func bulkGet(_ body: String, query: String = "") throws -> TestResponse {
        try send("POST", "/db/_bulk_get\(query)", body: body)
    }

    /// `c` with leaves `2-{a}` and `2-{f}` under `1-{x}`.
    private func conflicted() throws {
        for leaf in [a, f] {
            XCTAssertEqual(try send("PUT", "/db/c?new_edits=false",
                                    body: #"{"_revisions":{"start":2,"ids":["\#(leaf)","\#(x)"]},"v":"\#(leaf.prefix(1))"}"#).status, 201)
        }
    }

    func test_CD_135_exactlyOneResultsMember() throws {
        let r1 = try put("a", #"{"v":1}"#)
        let r2 = try put("a", #"{"_rev":"\#(r1)","v":2}"#)
        let r = try bulkGet(#"{"docs":[{"id":"a","rev":"\#(r2)"}]}"#, query: "?revs=true")
        XCTAssertEqual(r.status, 200)
        XCTAssertEqual(r.header("Content-Type"), "application/json")
        XCTAssertEqual(json(r).objectValue?.keys, ["results"])
        let suffixes = [r2, r1].map { String($0.split(separator: "-")[1]) }
        XCTAssertEqual(compact(r), """
            {"results":[{"id":"a","docs":[{"ok":{"_id":"a","_rev":"\(r2)","v":2,\
            "_revisions":{"start":2,"ids":["\(suffixes[0])","\(suffixes[1])"]}}}]}]}
            """)
        // An older revision whose body is still stored.
        XCTAssertEqual(json(try bulkGet(#"{"docs":[{"id":"a","rev":"\#(r1)"}]}"#))["results"]?[0]?["docs"]?[0]?["ok"]?["v"]?.int64Value, 1)
        assertError(try send("GET", "/db/_bulk_get"), 405, "method_not_allowed", "Only POST allowed")
    }

    func test_CD_136_leavesMissingDocumentsAndRevisions() throws {
        try conflicted()
        let r = json(try bulkGet(#"{"docs":[{"id":"c"},{"id":"x"},{"id":"c","rev":"9-\#(a)"}]}"#))
        let results = r["results"]?.arrayValue ?? []
        XCTAssertEqual(results[0]["docs"]?.arrayValue?.compactMap { $0["ok"]?["_rev"]?.stringValue }, ["2-\(a)", "2-\(f)"])
        XCTAssertEqual(results[1].serialized(),
                       #"{"id":"x","docs":[{"error":{"id":"x","rev":"undefined","error":"not_found","reason":"missing"}}]}"#)
        XCTAssertEqual(results[2].serialized(),
                       #"{"id":"c","docs":[{"error":{"id":"c","rev":"9-\#(a)","error":"not_found","reason":"missing"}}]}"#)
        // A body-less ancestor is known to the tree but cannot be returned.
        XCTAssertEqual(json(try bulkGet(#"{"docs":[{"id":"c","rev":"1-\#(x)"}]}"#))["results"]?[0]?["docs"]?.serialized(),
                       #"[{"error":{"id":"c","rev":"1-\#(x)","error":"not_found","reason":"missing"}}]"#)
    }

    func test_CD_137_malformedEntries() throws {
        try put("a", "{}")
        let r = try bulkGet(#"{"docs":[5,{},{"id":"a","rev":"bad"},{"id":"_bad"},{"id":"a","atts_since":"x"},{"id":"a"}]}"#)
        XCTAssertEqual(r.status, 200)
        let results = json(r)["results"]?.arrayValue ?? []
        XCTAssertEqual(results[0].serialized(),
                       #"{"id":null,"docs":[{"error":{"id":null,"rev":null,"error":"bad_request","reason":"document must be a JSON object"}}]}"#)
        XCTAssertEqual(results[1].serialized(),
                       #"{"id":null,"docs":[{"error":{"id":null,"rev":null,"error":"bad_request","reason":"document id missed"}}]}"#)
        XCTAssertEqual(results[2].serialized(),
                       #"{"id":"a","docs":[{"error":{"id":"a","rev":"bad","error":"bad_request","reason":"Invalid rev format"}}]}"#)
        XCTAssertEqual(results[3].serialized(), """
            {"id":"_bad","docs":[{"error":{"id":"_bad","rev":null,"error":"illegal_docid",\
            "reason":"Only reserved document ids may start with underscore."}}]}
            """)
        XCTAssertEqual(results[4]["docs"]?[0]?["error"]?["reason"]?.stringValue, "att_since value must be array of revs.")
        XCTAssertEqual(results[5]["docs"]?[0]?["ok"]?["_id"]?.stringValue, "a")
    }

    func test_CD_138_requestErrors() throws {
        assertError(try bulkGet(#"{"doc":[]}"#), 400, "bad_request", "Missing JSON list of 'docs'.")
        assertError(try bulkGet("[]"), 400, "bad_request", "Request body must be a JSON object")
        for name in ["open_revs", "new_edits", "w", "rev", "atts_since"] {
            assertError(try bulkGet(#"{"docs":[]}"#, query: "?\(name)=all"), 400, "bad_request",
                        "\"\(name)\" query parameter is not acceptable")
        }
        assertError(try send("POST", "/db/_bulk_get", body: #"{"docs":[]}"#, contentType: "text/plain"), 415, "bad_content_type")
        assertError(try send("POST", "/nosuch/_bulk_get", body: #"{"docs":[]}"#), 404, "not_found", "Database does not exist.")
        XCTAssertEqual(compact(try bulkGet(#"{"docs":[]}"#)), #"{"results":[]}"#)
    }

    func test_CD_139_orderDuplicatesLatestAndAttachments() throws {
        let r1 = try put("a", #"{"v":1}"#)
        let r2 = try put("a", #"{"_rev":"\#(r1)","v":2}"#)
        try put("b", #"{"w":1}"#)
        let body = #"{"docs":[{"id":"b"},{"id":"a","rev":"\#(r1)"},{"id":"b"},{"id":"a","rev":"\#(r1)"}]}"#
        let results = json(try bulkGet(body, query: "?latest=true"))["results"]?.arrayValue ?? []
        XCTAssertEqual(results.compactMap { $0["id"]?.stringValue }, ["b", "a", "b", "a"])
        XCTAssertEqual(results[1]["docs"]?.arrayValue?.compactMap { $0["ok"]?["_rev"]?.stringValue }, [r2])
        XCTAssertEqual(results[3]["docs"]?.arrayValue?.compactMap { $0["ok"]?["_rev"]?.stringValue }, [r2])
        // Without latest the named revision itself.
        XCTAssertEqual(json(try bulkGet(body))["results"]?[1]?["docs"]?[0]?["ok"]?["_rev"]?.stringValue, r1)
        // Options from the query string apply to every document.
        try conflicted()
        let meta = json(try bulkGet(#"{"docs":[{"id":"c","rev":"2-\#(f)"}]}"#, query: "?conflicts=true&revs_info=true&local_seq=true"))
        let doc = meta["results"]?[0]?["docs"]?[0]?["ok"]
        XCTAssertEqual(doc?["_conflicts"]?.serialized(), #"["2-\#(a)"]"#)
        XCTAssertEqual(doc?["_revs_info"]?.arrayValue?.count, 2)
        XCTAssertNotNil(doc?["_local_seq"]?.int64Value)
        // Attachments: stubs by default; with an entry's atts_since naming the revision that added them, still
        // stubs (nothing newer to send).
        let att = try put("att", #"{"_attachments":{"a.txt":{"content_type":"text/plain","data":"aGVsbG8="}}}"#)
        let stubs = json(try bulkGet(#"{"docs":[{"id":"att","atts_since":["\#(att)"]}]}"#, query: "?attachments=true"))
        XCTAssertEqual(stubs["results"]?[0]?["docs"]?[0]?["ok"]?["_attachments"]?["a.txt"]?["stub"], .bool(true))
        XCTAssertEqual(json(try bulkGet(#"{"docs":[{"id":"att"}]}"#))["results"]?[0]?["docs"]?[0]?["ok"]?["_attachments"]?["a.txt"]?["digest"]?.stringValue,
                       "md5-iMaiC8wqiFlD2NjLTemvCQ==")
    }

    /// The live winner is answered from the copy in the document row: it must be exactly what its revision
    /// row gives (`GET ?rev=` reads that row), body, attachment stubs and member order, conflicts or not.
    func test_CD_139_theWinnerFromTheDocumentRowIsItsRevision() throws {
        let r1 = try put("w", #"{"t":"é\"\n","n":[1,2.50,{"k":null}],"_attachments":{"b.txt":{"content_type":"text/plain","data":"aGVsbG8="},"a.bin":{"content_type":"application/octet-stream","data":"AAEC"}}}"#)
        let r2 = try put("w", #"{"_rev":"\#(r1)","t":"two","_attachments":{"b.txt":{"stub":true},"a.bin":{"stub":true}}}"#)
        try conflicted()
        for (id, rev) in [("w", r2), ("c", "2-" + f), ("c", "2-" + a)] {
            let revision = try get("/db/\(id)?rev=\(rev)")
            let docs = json(try bulkGet(#"{"docs":[{"id":"\#(id)"}]}"#))["results"]?[0]?["docs"]?.arrayValue ?? []
            let answered = docs.compactMap { $0["ok"] }.first { $0["_rev"]?.stringValue == rev }
            XCTAssertEqual(answered?.serialized(), revision.serialized(), "\(id) \(rev)")
            let named = json(try bulkGet(#"{"docs":[{"id":"\#(id)","rev":"\#(rev)"}]}"#))["results"]?[0]?["docs"]?[0]?["ok"]
            XCTAssertEqual(named?.serialized(), revision.serialized(), "\(id) \(rev) named")
        }
        XCTAssertNotNil(try get("/db/w")["_attachments"]?["a.bin"]?["stub"])
    }
}

/// `couch.maxBulkGet` configured below its default.
final class CouchBulkGetLimitTests: CouchTestCase {
    override var environment: [String: String] { ["QUARTET_COUCH_MAX_BULK_GET": "2"] }

    func test_CD_138_theConfiguredEntryLimit() throws {
        XCTAssertEqual(try send("POST", "/db/_bulk_get", body: #"{"docs":[{"id":"a"},{"id":"b"}]}"#).status, 200)
        assertError(try send("POST", "/db/_bulk_get", body: #"{"docs":[{"id":"a"},{"id":"b"},{"id":"c"}]}"#), 413, "too_large")
    }
}
