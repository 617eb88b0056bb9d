import Foundation
import XCTest
import Core

/// Checklist CD-046…CD-064: document writes and their validation (spec §3.3.3, §4.3, §4.6, §2.3).
final class CouchDocumentWriteTests: CouchTestCase {
    /// `update_seq` of `db`.
    private func seq() throws -> Int64? { try info()["update_seq"]?.int64Value }

    func test_CD_046_updateWithoutRevIsAConflict() throws {
        let r1 = try put("doc", #"{"a":1}"#)
        assertError(try send("PUT", "/db/doc", body: #"{"a":2}"#), 409, "conflict", "Document update conflict.")
        XCTAssertEqual(try get("/db/doc")["_rev"]?.stringValue, r1)
        XCTAssertEqual(try seq(), 1)
    }

    func test_CD_047_staleAndUnknownRevisionsAreConflicts() throws {
        let r1 = try put("doc", #"{"a":1}"#)
        try put("doc", #"{"_rev":"\#(r1)","a":2}"#)
        assertError(try send("PUT", "/db/doc", body: #"{"_rev":"\#(r1)","a":3}"#), 409, "conflict", "Document update conflict.")
        assertError(try send("PUT", "/db/new", body: #"{"_rev":"1-\#(Self.hex("a"))"}"#), 409, "conflict")
        assertError(try send("GET", "/db/new"), 404, "not_found", "missing")
    }

    func test_CD_048_revisionInTheQueryString() throws {
        let r1 = try put("doc1", #"{"a":1}"#)
        assertError(try send("PUT", "/db/doc1?rev=\(r1)", body: #"{"_rev":"1-\#(Self.hex("b"))","a":2}"#), 400, "bad_request",
                    "Document rev from request body and query string have different values")
        let r = try send("PUT", "/db/doc1?rev=\(r1)", body: #"{"a":2}"#)
        XCTAssertEqual(r.status, 201, r.text)
        XCTAssertTrue(json(r)["rev"]?.stringValue?.hasPrefix("2-") ?? false)
    }

    func test_CD_049_bodiesThatAreNotObjects() throws {
        for body in ["[]", #""x""#] {
            assertError(try send("PUT", "/db/d", body: body), 400, "bad_request", "Document must be a JSON object")
        }
    }

    func test_CD_050_malformedJSON() throws {
        var bodies: [[UInt8]] = [#"{"a":}"#, "", #"{"a":NaN}"#, #"{"a":01}"#, #"{"a":1,}"#, #"{"s":"\ud800"}"#].map { Array($0.utf8) }
        bodies.append([0xEF, 0xBB, 0xBF] + Array("{}".utf8))
        bodies.append(Array(#"{"s":""#.utf8) + [0xFF] + Array(#""}"#.utf8))
        bodies.append(Array(String(repeating: "[", count: 10_000).utf8) + Array(String(repeating: "]", count: 10_000).utf8))
        for body in bodies {
            let r = try send("PUT", "/db/d", bytes: body)
            assertError(r, 400, "bad_request", "invalid UTF-8 JSON")
        }
        assertError(try send("GET", "/db/d"), 404, "not_found", "missing")
        XCTAssertEqual(try seq(), 0)
        XCTAssertEqual(try send("GET", "/_up").status, 200)
    }

    func test_CD_051_duplicateKeys() throws {
        for body in [#"{"a":1,"a":2}"#, #"{"x":{"k":1,"k":1}}"#] {
            assertError(try send("PUT", "/db/d", body: body), 400, "bad_request", "Duplicate key in JSON object.")
        }
        assertError(try send("GET", "/db/d"), 404, "not_found", "missing")
    }

    func test_CD_052_numbersKeepTheirLiterals() throws {
        assertError(try send("PUT", "/db/big", body: #"{"n":1e400}"#), 400, "bad_request")
        try put("d", #"{"n":1E2}"#)
        XCTAssertTrue(try send("GET", "/db/d").text.contains(#""n":1E2"#))
    }

    func test_CD_053_badSpecialMembers() throws {
        assertError(try send("PUT", "/db/d", body: #"{"_zing":4}"#), 400, "doc_validation", "Bad special document member: _zing")
        assertError(try send("POST", "/db", body: #"{"_zing":4}"#), 400, "doc_validation", "Bad special document member: _zing")
        assertError(try send("PUT", "/db/d", body: #"{"_deleted":"yes"}"#), 400, "doc_validation",
                    "Bad special document member: _deleted")
        assertError(try send("PUT", "/db/d", body: #"{"_attachments":[]}"#), 400, "doc_validation",
                    "Bad special document member: _attachments")
    }

    func test_CD_054_readOnlyMembersAreDroppedAndKeptOnesStay() throws {
        try put("d", #"{"_conflicts":["1-x"],"_revs_info":[],"_local_seq":5,"a":1}"#)
        let d = try get("/db/d")
        XCTAssertEqual(d.objectValue?.keys, ["_id", "_rev", "a"])
        try put("e", #"{"_access":["x"],"a":1}"#)
        XCTAssertEqual(try get("/db/e").objectValue?.keys, ["_id", "_rev", "_access", "a"])
    }

    func test_CD_055_reservedIds() throws {
        for id in ["_other", "_tmp_view"] {
            assertError(try send("PUT", "/db/\(id)", body: "{}"), 400, "illegal_docid",
                        "Only reserved document ids may start with underscore.")
        }
        assertError(try send("PUT", "/db/_design%2F", body: "{}"), 400, "illegal_docid", "Illegal document id `_design/`")
    }

    func test_CD_056_idsInPostBodies() throws {
        assertError(try send("POST", "/db", body: #"{"_id":1}"#), 400, "illegal_docid", "Document id must be a string")
        assertError(try send("POST", "/db", body: #"{"_id":""}"#), 400, "illegal_docid", "Document id must not be empty")
        assertError(try send("POST", "/db", body: #"{"_id":"_invalid"}"#), 400, "illegal_docid",
                    "Only reserved document ids may start with underscore.")
    }

    func test_CD_057_theURLNamesTheDocument() throws {
        let r = try send("PUT", "/db/doc", body: #"{"_id":"other","a":1}"#)
        XCTAssertEqual(r.status, 201, r.text)
        XCTAssertEqual(json(r)["id"]?.stringValue, "doc")
        assertError(try send("GET", "/db/other"), 404, "not_found", "missing")
    }

    func test_CD_058_encodedSlashesInIds() throws {
        let r = try send("PUT", "/db/foo%2Fbar", body: "{}")
        XCTAssertEqual(r.status, 201, r.text)
        XCTAssertEqual(json(r)["id"]?.stringValue, "foo/bar")
        XCTAssertEqual(try send("GET", "/db/foo%2Fbar").status, 200)
        XCTAssertEqual(try send("GET", "/db/foo/bar").status, 404)
    }

    func test_CD_059_plusSpaceAndUnicodeIds() throws {
        XCTAssertEqual(json(try send("PUT", "/db/test+doc", body: "{}"))["id"]?.stringValue, "test doc")
        XCTAssertEqual(json(try send("PUT", "/db/test%2Bdoc", body: "{}"))["id"]?.stringValue, "test+doc")
        let r = try send("PUT", "/db/f%C3%B8%C3%B8", body: #"{"b\u00e5r":"Iñtërnâtiônàlizætiøn"}"#)
        XCTAssertEqual(r.status, 201)
        let text = try send("GET", "/db/f%C3%B8%C3%B8").text
        XCTAssertTrue(text.hasPrefix(#"{"_id":"føø","_rev":"#), text)
        XCTAssertTrue(text.hasSuffix(#","bår":"Iñtërnâtiônàlizætiøn"}"# + "\n"), text)
    }

    func test_CD_060_idValidationThroughThePath() throws {
        assertError(try send("PUT", "/db/%FF", body: "{}"), 400, "illegal_docid")
        assertError(try send("PUT", "/db/a%00b", body: "{}"), 400, "illegal_docid")
        assertError(try send("PUT", "/db/" + String(repeating: "x", count: 2049), body: "{}"), 400, "illegal_docid",
                    "Document id is too long")
        XCTAssertEqual(try send("PUT", "/db/" + String(repeating: "x", count: 2048), body: "{}").status, 201)
    }

    func test_CD_061_idsAreNeverSplicedIntoSQL() throws {
        try put("a", "{}")
        let id = "'; DROP TABLE docs; --"
        let r = try send("PUT", "/db/\(pct(id))", body: #"{"x":1}"#)
        XCTAssertEqual(r.status, 201, r.text)
        XCTAssertEqual(try get("/db/\(pct(id))")["_id"]?.stringValue, id)
        XCTAssertEqual(try get("/db/a")["_id"]?.stringValue, "a")
        XCTAssertEqual(try info()["doc_count"]?.int64Value, 2)
        let listed = try get("/db/_all_docs")["rows"]?.arrayValue?.compactMap { $0["id"]?.stringValue }
        XCTAssertEqual(listed, [id, "a"])
        XCTAssertEqual(try get("/_all_dbs").serialized(), #"["_users","db"]"#)
    }

    func test_CD_062_idsCannotSplitHeaders() throws {
        let r = try send("PUT", "/db/a%0D%0ASet-Cookie:%20x=y", body: "{}")
        XCTAssertEqual(r.status, 201, r.text)
        let location = try XCTUnwrap(r.header("Location"))
        XCTAssertTrue(location.hasSuffix("/db/a%0D%0ASet-Cookie%3A%20x%3Dy"), location)
        XCTAssertNil(r.header("Set-Cookie"))
        XCTAssertFalse(r.headers.contains { $0.0.lowercased() == "set-cookie" })
    }

    func test_CD_063_postGivesServerIds() throws {
        let r = try send("POST", "/db", body: #"{"x":1}"#)
        XCTAssertEqual(r.status, 201)
        let id = try XCTUnwrap(json(r)["id"]?.stringValue)
        XCTAssertNotNil(id.range(of: "^[0-9a-f]{32}$", options: .regularExpression), id)
        XCTAssertTrue(r.header("Location")?.hasSuffix("/db/\(id)") ?? false)
        var ids = Set<String>()
        for _ in 0..<100 { ids.insert(json(try send("POST", "/db", body: "{}"))["id"]?.stringValue ?? "") }
        XCTAssertEqual(ids.count, 100)
        assertError(try send("POST", "/db", body: "{}", contentType: "text/plain"), 415, "bad_content_type",
                    "Content-Type must be application/json")
    }

    func test_CD_064_postWithAnIdCreatesOrUpdates() throws {
        let rev = try put("taken", "{}")
        assertError(try send("POST", "/db", body: #"{"_id":"taken"}"#), 409, "conflict")
        let r = try send("POST", "/db", body: #"{"_id":"taken","_rev":"\#(rev)","v":2}"#)
        XCTAssertEqual(r.status, 201, r.text)
        XCTAssertTrue(json(r)["rev"]?.stringValue?.hasPrefix("2-") ?? false)
    }

    /// A missing database is the answer before anything about the body (CouchDB opens the database first),
    /// and after it (the write's own check).
    func testWritesToAMissingDatabaseAre404WhateverTheBody() throws {
        for (method, path, body) in [("PUT", "/nosuch/d", "{}"), ("PUT", "/nosuch/d", "[bad"), ("POST", "/nosuch", "{}"),
                                     ("POST", "/nosuch", "{\"_zing\":1}"), ("PUT", "/nosuch/_local/x", "{}"),
                                     ("PUT", "/nosuch/_local/x", "[")] {
            assertError(try send(method, path, body: body), 404, "not_found", "Database does not exist.")
        }
    }
}
