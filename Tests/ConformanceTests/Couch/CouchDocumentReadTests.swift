import Foundation
import XCTest
import Core

/// Checklist CD-065…CD-079: document reads, deletion, re-creation and COPY (spec §3.3).
final class CouchDocumentReadTests: CouchTestCase {
    func test_CD_065_getAndHead() throws {
        let rev = try put("doc1", #"{"a":1}"#)
        let r = try send("GET", "/db/doc1")
        XCTAssertEqual(r.status, 200)
        XCTAssertEqual(r.text, #"{"_id":"doc1","_rev":"\#(rev)","a":1}"# + "\n")
        XCTAssertEqual(r.header("ETag"), "\"\(rev)\"")
        let head = try send("HEAD", "/db/doc1")
        XCTAssertEqual(head.status, 200)
        XCTAssertEqual(head.header("ETag"), "\"\(rev)\"")
        XCTAssertEqual(head.header("Content-Type"), "application/json")
        XCTAssertEqual(head.header("Content-Length"), String(r.body.count))
        XCTAssertTrue(head.body.isEmpty)
        XCTAssertEqual(try send("GET", "/db/nosuch").text, "{\"error\":\"not_found\",\"reason\":\"missing\"}\n")
    }

    /// A plain read is answered on the I/O thread once the admin's Basic header is remembered, and on a
    /// worker before that (and for every other read): both answers must be the same bytes.
    func test_CD_065_theSameAnswerOnEveryReadPath() throws {
        let rev = try put("doc1", #"{"a":1,"nested":{"b":[1,2.50,"\u00e9"]}}"#)
        // The scheme in other letters: the same credentials in a header the server has not seen yet.
        let header = "BASIC " + Data("admin:\(Self.password)".utf8).base64EncodedString()
        var answers: [TestResponse] = []
        for _ in 0..<3 { answers.append(try send("GET", "/db/doc1", auth: .header(header))) }
        // A query sends the read to the worker whatever the credentials.
        let viaWorker = try send("GET", "/db/doc1?attachments=false", auth: .header(header))
        for answer in answers + [viaWorker] {
            XCTAssertEqual(answer.status, 200)
            XCTAssertEqual(answer.body, answers[0].body)
            for name in ["ETag", "Content-Type", "Content-Length", "Cache-Control", "Server"] {
                XCTAssertEqual(answer.header(name), answers[0].header(name), name)
            }
        }
        XCTAssertEqual(answers[0].header("ETag"), "\"\(rev)\"")
        for method in ["HEAD", "GET"] {
            let cookie = try send("POST", "/_session", body: #"{"name":"admin","password":"\#(Self.password)"}"#)
            guard let setCookie = cookie.header("Set-Cookie"), let value = setCookie.split(separator: ";").first else {
                return XCTFail("no session cookie")
            }
            let viaCookie = try send(method, "/db/doc1", headers: [("Cookie", String(value))], auth: .anonymous)
            XCTAssertEqual(viaCookie.status, 200)
            XCTAssertEqual(viaCookie.header("ETag"), answers[0].header("ETag"))
            XCTAssertEqual(viaCookie.header("Content-Length"), answers[0].header("Content-Length"))
            XCTAssertEqual(viaCookie.body, method == "HEAD" ? [] : answers[0].body)
        }
        // Wrong credentials are never answered from the remembered header.
        assertError(try send("GET", "/db/doc1", auth: .basic("admin", "wrong")), 401, "unauthorized")
        assertError(try send("GET", "/db/doc1", auth: .anonymous), 401, "unauthorized")
    }

    func test_CD_066_readingADeletedDocument() throws {
        let rev = try put("doc1", #"{"a":1}"#)
        let tombstone = json(try send("DELETE", "/db/doc1?rev=\(rev)"))["rev"]?.stringValue ?? ""
        assertError(try send("GET", "/db/doc1"), 404, "not_found", "deleted")
        XCTAssertEqual(compact(try send("GET", "/db/doc1?rev=\(tombstone)")),
                       #"{"_id":"doc1","_rev":"\#(tombstone)","_deleted":true}"#)
        XCTAssertEqual(compact(try send("GET", "/db/doc1?deleted=true")), #"{"_id":"doc1","_rev":"\#(tombstone)","_deleted":true}"#)
    }

    func test_CD_067_malformedAndUnknownRevisions() throws {
        try put("doc1", "{}")
        assertError(try send("GET", "/db/doc1?rev=garbage"), 400, "bad_request", "Invalid rev format")
        assertError(try send("GET", "/db/doc1?rev=1-" + String(repeating: "z", count: 32)), 400, "bad_request", "Invalid rev format")
        assertError(try send("GET", "/db/doc1?rev=9-\(Self.hex("a"))"), 404, "not_found", "missing")
    }

    func test_CD_068_olderRevisionsAndRevisions() throws {
        let r1 = try put("doc1", #"{"v":1}"#)
        let r2 = try put("doc1", #"{"_rev":"\#(r1)","v":2}"#)
        let r3 = try put("doc1", #"{"_rev":"\#(r2)","v":3}"#)
        XCTAssertEqual(compact(try send("GET", "/db/doc1?rev=\(r1)")), #"{"_id":"doc1","_rev":"\#(r1)","v":1}"#)
        let suffix = { (rev: String) in String(rev.split(separator: "-")[1]) }
        XCTAssertEqual(try get("/db/doc1?revs=true")["_revisions"]?.serialized(),
                       #"{"start":3,"ids":["\#(suffix(r3))","\#(suffix(r2))","\#(suffix(r1))"]}"#)
    }

    func test_CD_069_revsInfoBeforeAndAfterCompactionAndLocalSeq() throws {
        let r1 = try put("doc1", #"{"v":1}"#)
        let r2 = try put("doc1", #"{"_rev":"\#(r1)","v":2}"#)
        let r3 = try put("doc1", #"{"_rev":"\#(r2)","v":3}"#)
        XCTAssertEqual(try get("/db/doc1?revs_info=true")["_revs_info"]?.serialized(),
                       #"[{"rev":"\#(r3)","status":"available"},{"rev":"\#(r2)","status":"available"},{"rev":"\#(r1)","status":"available"}]"#)
        XCTAssertEqual(try send("POST", "/db/_compact", body: "").status, 202)
        try waitForCompaction()
        XCTAssertEqual(try get("/db/doc1?revs_info=true")["_revs_info"]?.arrayValue?.compactMap { $0["status"]?.stringValue },
                       ["available", "missing", "missing"])
        XCTAssertEqual(try send("PUT", "/fresh").status, 201)
        try put("first", "{}", db: "fresh")
        XCTAssertEqual(try get("/fresh/first?local_seq=true")["_local_seq"]?.numberValue?.text, "1")
    }

    func test_CD_070_metaOnAConflictedDocument() throws {
        try put("c", #"{"_rev":"1-\#(Self.hex("1"))"}"#, query: "?new_edits=false")
        try put("c", #"{"_revisions":{"start":2,"ids":["\#(Self.hex("a"))","\#(Self.hex("1"))"]}}"#, query: "?new_edits=false")
        try put("c", #"{"_revisions":{"start":2,"ids":["\#(Self.hex("f"))","\#(Self.hex("1"))"]}}"#, query: "?new_edits=false")
        try put("c", #"{"_revisions":{"start":2,"ids":["\#(Self.hex("b"))","\#(Self.hex("1"))"]},"_deleted":true}"#, query: "?new_edits=false")
        let r = try send("GET", "/db/c?meta=true")
        XCTAssertEqual(r.status, 200)
        let doc = json(r)
        XCTAssertEqual(doc.objectValue?.keys, ["_id", "_rev", "_revs_info", "_conflicts", "_deleted_conflicts"])
        XCTAssertEqual(doc["_conflicts"]?.serialized(), #"["2-\#(Self.hex("a"))"]"#)
        XCTAssertEqual(doc["_deleted_conflicts"]?.serialized(), #"["2-\#(Self.hex("b"))"]"#)
        XCTAssertNil(r.header("ETag"))
    }

    func test_CD_071_deletingThroughPutAndPost() throws {
        let rev = try put("doc1", "{}")
        let r = try send("PUT", "/db/doc1", body: #"{"_rev":"\#(rev)","_deleted":true}"#)
        XCTAssertEqual(r.status, 200, r.text)
        XCTAssertEqual(json(r).objectValue?.keys, ["ok", "id", "rev"])
        XCTAssertEqual(json(r)["ok"], .bool(true))
        XCTAssertEqual(json(r)["id"]?.stringValue, "doc1")
        XCTAssertTrue(json(r)["rev"]?.stringValue?.hasPrefix("2-") == true, r.text)
        let other = try put("doc2", "{}")
        let posted = try send("POST", "/db", body: #"{"_id":"doc2","_rev":"\#(other)","_deleted":true}"#)
        XCTAssertEqual(posted.status, 201, posted.text)
    }

    func test_CD_072_delete() throws {
        let rev = try put("doc1", "{}")
        try put("doc2", "{}")
        assertError(try send("DELETE", "/db/doc2"), 409, "conflict", "Document update conflict.")
        let r2 = try put("doc2", #"{"_rev":"\#(json(try send("GET", "/db/doc2"))["_rev"]?.stringValue ?? "")"}"#)
        XCTAssertFalse(r2.isEmpty)
        let r = try send("DELETE", "/db/doc1?rev=\(rev)")
        XCTAssertEqual(r.status, 200)
        XCTAssertEqual(json(r)["ok"]?.boolValue, true)
        XCTAssertEqual(r.header("ETag"), "\"\(json(r)["rev"]?.stringValue ?? "")\"")
        assertError(try send("DELETE", "/db/doc2?rev=1-967a00dff5e02add41819138abb3284d"), 409, "conflict")
        assertError(try send("DELETE", "/db/nosuch?rev=\(rev)"), 404, "not_found", "missing")
        assertError(try send("DELETE", "/db/doc1?rev=\(rev)"), 404, "not_found", "deleted")
    }

    func test_CD_073_recreationContinuesTheTree() throws {
        let rev = try put("doc1", #"{"a":1}"#)
        let tombstone = json(try send("DELETE", "/db/doc1?rev=\(rev)"))["rev"]?.stringValue ?? ""
        let again = try put("doc1", #"{"a":2}"#)
        XCTAssertTrue(again.hasPrefix("3-"), again)
        XCTAssertTrue(tombstone.hasPrefix("2-"))
        XCTAssertEqual(try info()["update_seq"]?.int64Value, 3)
        XCTAssertEqual(try info()["doc_count"]?.int64Value, 1)
    }

    func test_CD_074_afterDeletionRevisionsAreConflicts() throws {
        let rev = try put("doc1", #"{"a":1}"#)
        let tombstone = json(try send("DELETE", "/db/doc1?rev=\(rev)"))["rev"]?.stringValue ?? ""
        assertError(try send("PUT", "/db/doc1", body: #"{"_rev":"\#(rev)","a":2}"#), 409, "conflict")
        assertError(try send("PUT", "/db/doc1", body: #"{"_rev":"\#(tombstone)","a":2}"#), 409, "conflict")
        assertError(try send("PUT", "/db/doc1", body: #"{"_deleted":true}"#), 409, "conflict")
    }

    func test_CD_075_aNewTombstone() throws {
        let r = try send("PUT", "/db/t", body: #"{"_deleted":true}"#)
        XCTAssertEqual(r.status, 200)
        XCTAssertEqual(json(r)["rev"]?.stringValue, "1-de715bf126efc93d225d9e3f8e8eb81a")
        assertError(try send("GET", "/db/t"), 404, "not_found", "deleted")
        XCTAssertEqual(try info()["doc_del_count"]?.int64Value, 1)
    }

    func test_CD_076_copy() throws {
        let r1 = try put("src", #"{"v":1,"_attachments":{"a.txt":{"content_type":"text/plain","data":"aGVsbG8="}}}"#)
        try put("src", #"{"_rev":"\#(r1)","v":2,"_attachments":{"a.txt":{"stub":true}}}"#)
        let r = try send("COPY", "/db/src", headers: [("Destination", "dst")])
        XCTAssertEqual(r.status, 201, r.text)
        XCTAssertEqual(json(r)["id"]?.stringValue, "dst")
        XCTAssertTrue(json(r)["rev"]?.stringValue?.hasPrefix("1-") ?? false)
        XCTAssertTrue(r.header("Location")?.hasSuffix("/db/dst") ?? false)
        XCTAssertEqual(r.header("ETag"), "\"\(json(r)["rev"]?.stringValue ?? "")\"")
        let dst = try get("/db/dst")
        XCTAssertEqual(dst["v"]?.int64Value, 2)
        XCTAssertEqual(dst["_attachments"]?["a.txt"]?["digest"]?.stringValue, "md5-iMaiC8wqiFlD2NjLTemvCQ==")
        XCTAssertEqual(dst["_attachments"]?["a.txt"]?["revpos"]?.int64Value, 1)
        XCTAssertEqual(try send("COPY", "/db/src?rev=\(r1)", headers: [("Destination", "old")]).status, 201)
        XCTAssertEqual(try get("/db/old")["v"]?.int64Value, 1)
    }

    func test_CD_077_copyOntoAnExistingDocument() throws {
        try put("src", #"{"v":1}"#)
        let dst = try put("dst", #"{"v":0}"#)
        assertError(try send("COPY", "/db/src", headers: [("Destination", "dst")]), 409, "conflict")
        let r = try send("COPY", "/db/src", headers: [("Destination", "dst?rev=\(dst)")])
        XCTAssertEqual(r.status, 201, r.text)
        XCTAssertTrue(json(r)["rev"]?.stringValue?.hasPrefix("2-") ?? false)
    }

    func test_CD_078_copyDestinationErrors() throws {
        try put("src", "{}")
        assertError(try send("COPY", "/db/src"), 400, "bad_request", "Destination header is mandatory for COPY.")
        assertError(try send("COPY", "/db/src", headers: [("Destination", "http://x/y")]), 400, "bad_request",
                    "Destination URL must be relative.")
    }

    func test_CD_079_formUploadAndUnknownMethods() throws {
        let rev = try put("doc1", "{}")
        assertError(try send("POST", "/db/doc1", body: "{}"), 501, "not_implemented")
        // A real form upload (what CouchDB 1.x's Futon sent): multipart/form-data with `_rev` and a file.
        let form = "--F\r\nContent-Disposition: form-data; name=\"_rev\"\r\n\r\n\(rev)\r\n"
            + "--F\r\nContent-Disposition: form-data; name=\"_attachments\"; filename=\"a.txt\"\r\n"
            + "Content-Type: text/plain\r\n\r\nhello\r\n--F--\r\n"
        assertError(try send("POST", "/db/doc1", body: form, headers: [("Content-Type", "multipart/form-data; boundary=F")]),
                    501, "not_implemented")
        XCTAssertEqual(json(try send("GET", "/db/doc1"))["_rev"]?.stringValue, rev, "nothing stored")
        let r = try send("PATCH", "/db/doc1", body: "{}")
        assertError(r, 405, "method_not_allowed", "Only DELETE,GET,HEAD,PUT,COPY allowed")
        XCTAssertEqual(r.header("Allow"), "DELETE,GET,HEAD,PUT,COPY")
    }

    /// Waits until `compact_running` is false.
    private func waitForCompaction() throws {
        let deadline = Date().addingTimeInterval(10)
        while try info()["compact_running"]?.boolValue == true, Date() < deadline { usleep(20_000) }
    }
}
