import Foundation
import XCTest
import Core

/// Checklist CD-045 and CD-124…CD-134: `POST /{db}/_bulk_docs` (spec §3.7).
final class CouchBulkDocsTests: CouchTestCase {
    /// `POST /db/_bulk_docs` with `body`.
    private func bulk(_ body: String, headers: [(String, String)] = [], contentType: String = "application/json") throws -> TestResponse {
        try send("POST", "/db/_bulk_docs", body: body, headers: headers, contentType: contentType)
    }

    private func assertNothingStored(file: StaticString = #filePath, line: UInt = #line) throws {
        let db = try info()
        XCTAssertEqual(db["doc_count"]?.int64Value, 0, file: file, line: line)
        XCTAssertEqual(db["update_seq"]?.int64Value, 0, file: file, line: line)
    }

    func test_CD_045_bulkRevisionIdsMatchCouchDB() throws {
        let r = try bulk(#"{"docs":[{"_id":"x","val":"r0"}]}"#)
        XCTAssertEqual(r.status, 201)
        XCTAssertEqual(compact(r), #"[{"ok":true,"id":"x","rev":"1-47f3268e7546965196b57572099f4372"}]"#)
    }

    func test_CD_124_resultsInRequestOrderWithServerIds() throws {
        let r = try bulk(#"{"docs":[{"_id":"a"},{"_id":"b","v":1},{}]}"#)
        XCTAssertEqual(r.status, 201)
        XCTAssertEqual(r.header("Content-Type"), "application/json")
        let results = json(r).arrayValue ?? []
        XCTAssertEqual(results.count, 3)
        XCTAssertEqual(results.map { $0.objectValue?.keys ?? [] }, Array(repeating: ["ok", "id", "rev"], count: 3))
        XCTAssertEqual(results.prefix(2).compactMap { $0["id"]?.stringValue }, ["a", "b"])
        let generated = results[2]["id"]?.stringValue ?? ""
        XCTAssertEqual(generated.count, 32)
        XCTAssertTrue(generated.allSatisfy { "0123456789abcdef".contains($0) }, generated)
        XCTAssertEqual(try get("/db/b")["_rev"]?.stringValue, results[1]["rev"]?.stringValue)
        XCTAssertEqual(try get("/db/\(generated)")["_id"]?.stringValue, generated)
        let db = try info()
        XCTAssertEqual(db["doc_count"]?.int64Value, 3)
        // One request, one transaction: the database's sequence moved by three.
        XCTAssertEqual(db["update_seq"]?.int64Value, 3)
        // X-Couch-Full-Commit is accepted and changes nothing.
        XCTAssertEqual(try bulk(#"{"docs":[{"_id":"c"}]}"#, headers: [("X-Couch-Full-Commit", "false")]).status, 201)
        assertError(try send("GET", "/db/_bulk_docs"), 405, "method_not_allowed", "Only POST allowed")
        XCTAssertEqual(try send("GET", "/db/_bulk_docs").header("Allow"), "POST")
    }

    func test_CD_125_requestShapeErrors() throws {
        assertError(try bulk(#"{"doc":[]}"#), 400, "bad_request", "POST body must include `docs` parameter.")
        assertError(try bulk(#"{"docs":{}}"#), 400, "bad_request", "`docs` parameter must be an array.")
        assertError(try bulk(#"{"docs":[],"new_edits":"no"}"#), 400, "bad_request", "`new_edits` parameter must be a boolean.")
        assertError(try bulk("[]"), 400, "bad_request", "Request body must be a JSON object")
        assertError(try bulk(#"{"docs":[{"_id":"a"},5]}"#), 400, "bad_request", "Document must be a JSON object")
        assertError(try bulk(#"{"docs":[{"_id":"a"}"#), 400, "bad_request", "invalid UTF-8 JSON")
        assertError(try send("POST", "/nosuch/_bulk_docs", body: #"{"docs":[]}"#), 404, "not_found", "Database does not exist.")
        try assertNothingStored()
        XCTAssertEqual(compact(try bulk(#"{"docs":[]}"#)), "[]")
    }

    func test_CD_126_aConflictIsPerElement() throws {
        let r1 = try put("doc", #"{"v":1}"#)
        let r2 = try put("doc", #"{"_rev":"\#(r1)","v":2}"#)
        let r = try bulk(#"{"docs":[{"_id":"new1"},{"_id":"doc","_rev":"\#(r1)","v":3},{"_id":"new2"}]}"#)
        XCTAssertEqual(r.status, 201)
        let results = json(r).arrayValue ?? []
        guard results.count == 3 else { return XCTFail(r.text) }
        XCTAssertEqual(results[1].serialized(), #"{"id":"doc","error":"conflict","reason":"Document update conflict."}"#)
        XCTAssertEqual(results[0]["ok"], .bool(true))
        XCTAssertEqual(results[2]["ok"], .bool(true))
        XCTAssertEqual(try get("/db/doc")["_rev"]?.stringValue, r2)
        // The elements around the conflict are stored, at the revisions their answers named.
        XCTAssertEqual(try get("/db/new1")["_rev"]?.stringValue, results[0]["rev"]?.stringValue)
        XCTAssertEqual(try get("/db/new2")["_rev"]?.stringValue, results[2]["rev"]?.stringValue)
    }

    func test_CD_127_laterElementsSeeEarlierOnes() throws {
        let results = json(try bulk(#"{"docs":[{"_id":"0"},{"_id":"1"},{"_id":"1"}]}"#)).arrayValue ?? []
        XCTAssertEqual(results[1]["ok"], .bool(true))
        XCTAssertEqual(results[2].serialized(), #"{"id":"1","error":"conflict","reason":"Document update conflict."}"#)
        let rev = results[0]["rev"]?.stringValue ?? ""
        let both = json(try bulk(#"{"docs":[{"_id":"0","_rev":"\#(rev)","v":2},{"_id":"0","_rev":"\#(rev)","_deleted":true}]}"#)).arrayValue ?? []
        XCTAssertEqual(both.filter { $0["error"]?.stringValue == "conflict" }.count, 1)
        XCTAssertEqual(both[0]["ok"], .bool(true))
        XCTAssertEqual(try get("/db/0")["v"]?.int64Value, 2)
    }

    func test_CD_128_invalidIdsFailTheRequestAndSpecialIdsKeepTheirMeaning() throws {
        assertError(try bulk(#"{"docs":[{"_id":"ok"},{"_id":"_invalid"}]}"#), 400, "illegal_docid",
                    "Only reserved document ids may start with underscore.")
        assertError(try bulk(#"{"docs":[{"_id":"ok"},{"_id":1}]}"#), 400, "illegal_docid", "Document id must be a string")
        assertError(try bulk(#"{"docs":[{"_id":"ok"},{"_zing":1}]}"#), 400, "doc_validation", "Bad special document member: _zing")
        assertError(try bulk(#"{"docs":[{"_id":"ok"},{"_id":"_local/x","_attachments":{}}]}"#), 400, "bad_request",
                    "_local documents do not accept attachments.")
        try assertNothingStored()
        let r = try bulk(#"{"docs":[{"_id":"_design/foo","language":"javascript"},{"_id":"_local/bar","v":1}]}"#)
        XCTAssertEqual(r.status, 201)
        let results = json(r).arrayValue ?? []
        XCTAssertEqual(results[0]["id"]?.stringValue, "_design/foo")
        XCTAssertTrue(results[0]["rev"]?.stringValue?.hasPrefix("1-") ?? false)
        XCTAssertEqual(results[1].serialized(), #"{"ok":true,"id":"_local/bar","rev":"0-1"}"#)
        XCTAssertEqual(try get("/db/_design/foo")["language"]?.stringValue, "javascript")
        XCTAssertEqual(compact(try send("GET", "/db/_local/bar")), #"{"_id":"_local/bar","_rev":"0-1","v":1}"#)
        // The local document takes no sequence number and is not counted.
        XCTAssertEqual(try info()["update_seq"]?.int64Value, 1)
        XCTAssertEqual(try info()["doc_count"]?.int64Value, 1)
        let again = json(try bulk(#"{"docs":[{"_id":"_local/bar","_rev":"0-1","v":2},{"_id":"_local/gone","_deleted":true}]}"#))
        XCTAssertEqual(again.serialized(), #"[{"ok":true,"id":"_local/bar","rev":"0-2"},{"id":"_local/gone","error":"not_found","reason":"missing"}]"#)
    }

    func test_CD_129_allOrNothingIsRefused() throws {
        let r = try bulk(#"{"all_or_nothing":true,"docs":[{"_id":"a","_rev":"1-\#(Self.hex("a"))"},{"_id":"b"}]}"#)
        XCTAssertEqual(r.status, 417)
        XCTAssertEqual(compact(r), """
            [{"id":"a","rev":"1-\(Self.hex("a"))","error":"not_implemented","reason":"all_or_nothing is not supported"},\
            {"id":"b","rev":"0-","error":"not_implemented","reason":"all_or_nothing is not supported"}]
            """)
        try assertNothingStored()
        // With replicated edits the flag is ignored.
        let replicated = try bulk(#"{"all_or_nothing":true,"new_edits":false,"docs":[{"_id":"a","_rev":"1-\#(Self.hex("a"))"}]}"#)
        XCTAssertEqual(replicated.status, 201)
        XCTAssertEqual(compact(replicated), "[]")
    }

    func test_CD_130_replicatedEdits() throws {
        let a = Self.hex("a"), b = Self.hex("b"), c = Self.hex("c")
        let body = #"{"new_edits":false,"docs":[{"_id":"x","_rev":"3-\#(c)","_revisions":{"start":3,"ids":["\#(c)","\#(b)","\#(a)"]},"v":1},{"_id":"y","_rev":"1-\#(a)"}]}"#
        let r = try bulk(body)
        XCTAssertEqual(r.status, 201)
        XCTAssertEqual(compact(r), "[]")
        XCTAssertEqual(try get("/db/x?revs=true")["_revisions"]?.serialized(), #"{"start":3,"ids":["\#(c)","\#(b)","\#(a)"]}"#)
        XCTAssertEqual(try get("/db/y")["_rev"]?.stringValue, "1-\(a)")
        let seq = try info()["update_seq"]?.int64Value
        XCTAssertEqual(seq, 2)
        let again = try bulk(body)
        XCTAssertEqual(again.status, 201)
        XCTAssertEqual(compact(again), "[]")
        XCTAssertEqual(try info()["update_seq"]?.int64Value, seq)
        // A conflicting branch is stored next to the other, never refused.
        XCTAssertEqual(compact(try bulk(#"{"new_edits":false,"docs":[{"_id":"y","_rev":"1-\#(b)"}]}"#)), "[]")
        XCTAssertEqual(try get("/db/y?conflicts=true")["_conflicts"]?.serialized(), #"["1-\#(a)"]"#)
        assertError(try bulk(#"{"new_edits":false,"docs":[{"_id":"z","_rev":"1-\#(a)"},{"_id":"w","v":1}]}"#), 400, "bad_request",
                    "When `new_edits: false`, the document needs `_rev` or `_revisions` specified")
        XCTAssertEqual(try send("GET", "/db/z").status, 404)
    }

    /// Replicated bodies are read without a JSON tree: what is stored is byte for byte what the general way
    /// stores, and every fault still gets the general way's error with nothing stored.
    func test_CD_130_replicatedBodiesReadWithoutATree() throws {
        let a = Self.hex("a"), b = Self.hex("b")
        let r = try bulk(#"""
            { "docs" : [ { "_id" : "e" , "_rev" : "1-\#(a)" , "s" : "caf\u00e9 \/ \"q\"" , "n" : [ 1.50 , -0 , 1E3 ] ,
                           "_conflicts" : [ ] , "o" : { } },
                         { "_id" : "f" , "_revisions" : { "start" : 2 , "ids" : [ "\#(b)" , "\#(a)" ] } , "_deleted" : true },
                         { "_id" : "g" , "_rev" : "1-\#(a)" , "_attachments" : { "t.txt" : { "content_type" : "text/plain" ,
                           "data" : "aGVsbG8=" , "revpos" : 1 } } } ] ,
              "new_edits" : false }
            """#)
        XCTAssertEqual(r.status, 201)
        XCTAssertEqual(compact(r), "[]")
        XCTAssertEqual(try send("GET", "/db/e").text, #"{"_id":"e","_rev":"1-\#(a)","s":"café / \"q\"","n":[1.50,-0,1E3],"o":{}}"# + "\n")
        XCTAssertEqual(try send("GET", "/db/f?rev=2-\(b)").text, #"{"_id":"f","_rev":"2-\#(b)","_deleted":true}"# + "\n")
        XCTAssertEqual(try send("GET", "/db/g/t.txt").text, "hello")
        XCTAssertEqual(try info()["doc_count"]?.int64Value, 2)
        // A `_local` element takes the general way, the others with it too.
        XCTAssertEqual(compact(try bulk(#"{"new_edits":false,"docs":[{"_id":"_local/l","v":1},{"_id":"i","_rev":"1-\#(a)"}]}"#)), "[]")
        XCTAssertEqual(try get("/db/_local/l")["v"]?.int64Value, 1)
        XCTAssertEqual(try get("/db/i")["_rev"]?.stringValue, "1-\(a)")

        let before = try info()["update_seq"]?.int64Value
        func refused(_ element: String, _ status: Int, _ error: String, _ reason: String, line: UInt = #line) throws {
            let body = #"{"new_edits":false,"docs":[{"_id":"ok","_rev":"1-\#(a)"},\#(element)]}"#
            assertError(try bulk(body), status, error, reason, line: line)
        }
        try refused(#"{"_id":"h","_rev":"1-\#(a)","v":1,"\u0076":2}"#, 400, "bad_request", "Duplicate key in JSON object.")
        try refused(#"{"_id":"h","_rev":"1-\#(a)","v":{"k":1,"k":2}}"#, 400, "bad_request", "Duplicate key in JSON object.")
        try refused(#"{"_id":"_h","_rev":"1-\#(a)"}"#, 400, "illegal_docid", "Only reserved document ids may start with underscore.")
        try refused(#"{"_id":"h","_rev":"1-"}"#, 400, "bad_request", "Invalid rev format")
        try refused(#"{"_id":"h","_revisions":{"start":1,"ids":["zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz"]}}"#, 400, "doc_validation",
                    "RevId isn't a valid hexadecimal")
        try refused(#"{"_id":"h","_rev":"1-\#(a)","_access":1,"_other":1}"#, 400, "doc_validation", "Bad special document member: _other")
        try refused(#"{"_id":"h","_rev":"1-\#(a)","v":1e999}"#, 400, "bad_request", "invalid UTF-8 JSON")
        try refused(#"{"_id":"h","_rev":"1-\#(a)"} ]"#, 400, "bad_request", "invalid UTF-8 JSON")
        XCTAssertEqual(try info()["update_seq"]?.int64Value, before)
        XCTAssertEqual(try send("GET", "/db/ok").status, 404)
    }

    func test_CD_131_aMissingStubIsAPerElementFailure() throws {
        let a = Self.hex("a"), b = Self.hex("b")
        let r = try bulk(#"""
            {"new_edits":false,"docs":[
              {"_id":"s","_revisions":{"start":2,"ids":["\#(b)","\#(a)"]},"_attachments":{"f.txt":{"stub":true,"revpos":1}}},
              {"_id":"t","_rev":"1-\#(a)","v":1}]}
            """#)
        XCTAssertEqual(r.status, 201)
        let failures = json(r).arrayValue ?? []
        XCTAssertEqual(failures.count, 1)
        XCTAssertEqual(failures.first?.objectValue?.keys, ["id", "rev", "error", "reason"])
        XCTAssertEqual(failures.first?["id"]?.stringValue, "s")
        XCTAssertEqual(failures.first?["rev"]?.stringValue, "2-\(b)")
        XCTAssertEqual(failures.first?["error"]?.stringValue, "missing_stub")
        XCTAssertEqual(try send("GET", "/db/s").status, 404)
        XCTAssertEqual(try get("/db/t")["v"]?.int64Value, 1)
    }

    func test_CD_132_sizeLimits() throws {
        let many = "{\"docs\":[" + Array(repeating: "{}", count: 10_001).joined(separator: ",") + "]}"
        assertError(try bulk(many), 413, "too_large", "the request entity is too large")
        let big = String(repeating: "x", count: 8 * 1024 * 1024 - 8 + 1)
        // {"v":"…"} is 8 bytes around the string: one byte over 8 MiB.
        assertError(try bulk(#"{"docs":[{"_id":"small"},{"_id":"big","v":"\#(big)"}]}"#), 413, "too_large",
                    "the request entity is too large")
        try assertNothingStored()
        let fits = String(repeating: "x", count: 8 * 1024 * 1024 - 8)
        XCTAssertEqual(try bulk(#"{"docs":[{"_id":"big","v":"\#(fits)"}]}"#).status, 201)
    }

    func test_CD_133_contentTypeAndEncodings() throws {
        assertError(try bulk(#"{"docs":[{"_id":"a"}]}"#, contentType: "text/plain"), 415, "bad_content_type",
                    "Content-Type must be application/json")
        assertError(try bulk(#"{"docs":[{"_id":"a"}]}"#, headers: [("Content-Encoding", "br")]), 415, "bad_content_type",
                    "br is not a supported content encoding.")
        XCTAssertEqual(try bulk(#"{"docs":[{"_id":"a"}]}"#, contentType: "Application/JSON; charset=utf-8").status, 201)
        // gzip (§2.3): decoded before parsing; corrupt → 400; the bomb is CouchGzipBodyTests'.
        let gzipped = try Compression.deflate(Array(#"{"docs":[{"_id":"g","v":1}]}"#.utf8), format: .gzip, level: 6)
        let r = try send("POST", "/db/_bulk_docs", bytes: gzipped, headers: [("Content-Encoding", "gzip")])
        XCTAssertEqual(r.status, 201, r.text)
        XCTAssertEqual(json(r)[0]?["id"]?.stringValue, "g")
        XCTAssertEqual(try get("/db/g")["v"]?.int64Value, 1)
        assertError(try send("POST", "/db/_bulk_docs", bytes: Array(gzipped.dropLast(4)), headers: [("Content-Encoding", "gzip")]),
                    400, "bad_request", "Request body is not properly gzipped.")
        assertError(try send("POST", "/db/_bulk_docs", body: #"{"docs":[{"_id":"p"}]}"#, headers: [("Content-Encoding", "gzip")]),
                    400, "bad_request", "Request body is not properly gzipped.")
        XCTAssertEqual(try send("GET", "/db/p").status, 404)
    }

    func test_CD_134_aDeletionKeepsItsBody() throws {
        let rev = try put("t", #"{"v":1}"#)
        let r = try bulk(#"{"docs":[{"_id":"t","_rev":"\#(rev)","_deleted":true,"x":1}]}"#)
        XCTAssertEqual(r.status, 201)
        let tombstone = json(r)[0]?["rev"]?.stringValue ?? ""
        XCTAssertTrue(tombstone.hasPrefix("2-"), tombstone)
        assertError(try send("GET", "/db/t"), 404, "not_found", "deleted")
        XCTAssertEqual(compact(try send("GET", "/db/t?rev=\(tombstone)")), #"{"_id":"t","_rev":"\#(tombstone)","x":1,"_deleted":true}"#)
        XCTAssertEqual(try info()["doc_del_count"]?.int64Value, 1)
    }
}

/// `couch.maxBulkDocs` configured below its default.
final class CouchBulkDocsLimitTests: CouchTestCase {
    override var environment: [String: String] { ["QUARTET_COUCH_MAX_BULK_DOCS": "3"] }

    func test_CD_132_theConfiguredElementLimit() throws {
        XCTAssertEqual(try send("POST", "/db/_bulk_docs", body: #"{"docs":[{},{},{}]}"#).status, 201)
        assertError(try send("POST", "/db/_bulk_docs", body: #"{"docs":[{},{},{},{}]}"#), 413, "too_large")
        XCTAssertEqual(try info()["doc_count"]?.int64Value, 3)
    }
}
