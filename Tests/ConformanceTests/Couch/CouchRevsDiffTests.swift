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

/// CD-170's blob store half (spec §3.2.6, §4.7): blobs no longer referenced are removed from the blob store.
final class CouchCompactionBlobTests: CouchTestCase {
    override var environment: [String: String] { ["QUARTET_STORAGE_BLOB_GC_INTERVAL_SECONDS": "1"] }

    /// An attachment only an old revision referenced leaves the blob store once compaction dropped that revision
    /// (the collector deletes a blob that has had no reference for `storage.blobGcIntervalSeconds`, 1 s here, so
    /// that an upload of the same bytes racing the deletion keeps its file); one a leaf still references stays.
    func test_CD_170_compactionRemovesBlobsNoLongerReferenced() throws {
        let dropped = (0..<64).map { _ in UInt8.random(in: 0...255) }, kept = (0..<64).map { _ in UInt8.random(in: 0...255) }
        func attachment(_ bytes: [UInt8]) -> String {
            #"{"_attachments":{"a.bin":{"content_type":"application/octet-stream","data":"\#(Data(bytes).base64EncodedString())"}}}"#
        }
        let r1 = try put("doc", attachment(dropped))
        try put("other", attachment(kept))
        XCTAssertEqual(try blobFiles(holding: dropped).count, 1, "the attachment is in the blob store")
        let r2 = try put("doc", #"{"_rev":"\#(r1)","v":2}"#)
        try put("doc", #"{"_rev":"\#(r2)","v":3}"#)
        Thread.sleep(forTimeInterval: 2.5)   // past two collector rounds
        XCTAssertEqual(try blobFiles(holding: dropped).count, 1, "the first revision still references it")
        let seq = try info()["update_seq"]?.int64Value
        XCTAssertEqual(try send("POST", "/db/_compact", body: "").status, 202)
        let deadline = Date().addingTimeInterval(10)
        while try info()["compact_running"]?.boolValue == true, Date() < deadline { usleep(20_000) }
        // Gone within a few collector rounds; until then the compaction had to drop the reference.
        let gone = Date().addingTimeInterval(15)
        while try !blobFiles(holding: dropped).isEmpty, Date() < gone { usleep(100_000) }
        XCTAssertEqual(try blobFiles(holding: dropped), [], "no revision references it any more")
        XCTAssertEqual(try blobFiles(holding: kept).count, 1)
        let stillThere = try send("GET", "/db/other/a.bin")
        XCTAssertEqual(stillThere.status, 200)
        XCTAssertEqual(stillThere.body, kept)
        XCTAssertEqual(try info()["update_seq"]?.int64Value, seq)
    }

    /// The files under the data directory's blob store whose bytes are exactly `bytes`.
    private func blobFiles(holding bytes: [UInt8]) throws -> [String] {
        let root = server.dataDirectory.appendingPathComponent("blobs").path
        guard let walker = FileManager.default.enumerator(atPath: root) else { return [] }
        var found: [String] = []
        while let relative = walker.nextObject() as? String {
            let path = root + "/" + relative
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue,
                  let data = FileManager.default.contents(atPath: path) else { continue }
            if [UInt8](data) == bytes { found.append(relative) }
        }
        return found
    }
}
