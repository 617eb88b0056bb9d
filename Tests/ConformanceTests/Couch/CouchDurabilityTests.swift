import Foundation
import XCTest
import Core
#if canImport(Glibc)
import Glibc
#endif

/// Checklist CD-166: an acknowledged write survives `kill -9` (spec §5.10), standalone attachment `PUT`s included
/// (small and spooled bodies). Multipart `PUT`s are checked here once that resource exists.
final class CouchDurabilityTests: CouchTestCase {
    /// Kills the server with SIGKILL (no shutdown of any kind) and starts a new one on the same data.
    private func crashAndRestart() throws {
        let old = server!
        kill(old.process.processIdentifier, SIGKILL)
        old.process.waitUntilExit()
        old.stop(removeData: false)
        server = try TestServer(environment: ["QUARTET_ADMIN_PASSWORD": Self.password], dataDirectory: old.dataDirectory)
    }

    func test_CD_166_acknowledgedWritesSurviveKill9() throws {
        let gone = try put("gone", #"{"v":1}"#)
        try put("kept", #"{"v":1}"#)
        // Each write is acknowledged, then the process is killed at once: nothing may be lost.
        let kept = try send("PUT", "/db/kept", body: #"{"_rev":"\#(json(try send("GET", "/db/kept"))["_rev"]?.stringValue ?? "")","v":2}"#,
                            headers: [("X-Couch-Full-Commit", "false")])
        XCTAssertEqual(kept.status, 201, kept.text)
        XCTAssertEqual(try send("DELETE", "/db/gone?rev=\(gone)").status, 200)
        XCTAssertEqual(try send("PUT", "/db/_local/checkpoint", body: #"{"seq":4}"#).status, 201)
        let bulk = try send("POST", "/db/_bulk_docs", body: #"{"docs":[{"_id":"b1"},{"_id":"b2","v":2}]}"#,
                            headers: [("X-Couch-Full-Commit", "false")])
        XCTAssertEqual(bulk.status, 201, bulk.text)
        let last = try send("PUT", "/db/last", body: #"{"v":1}"#, headers: [("X-Couch-Full-Commit", "false")])
        XCTAssertEqual(last.status, 201)
        try crashAndRestart()
        XCTAssertEqual(try get("/db/b2")["v"]?.int64Value, 2)
        XCTAssertEqual(try get("/db/b1")["_rev"]?.stringValue, json(bulk)[0]?["rev"]?.stringValue)
        XCTAssertEqual(try get("/db/kept")["_rev"]?.stringValue, json(kept)["rev"]?.stringValue)
        XCTAssertEqual(try get("/db/kept")["v"]?.int64Value, 2)
        assertError(try send("GET", "/db/gone"), 404, "not_found", "deleted")
        XCTAssertEqual(try get("/db/_local/checkpoint")["seq"]?.int64Value, 4)
        XCTAssertEqual(try get("/db/last")["_rev"]?.stringValue, json(last)["rev"]?.stringValue)
        let feed = try get("/db/_changes")
        XCTAssertEqual(feed["last_seq"]?.int64Value, 7)
        XCTAssertEqual(feed["results"]?.arrayValue?.compactMap { $0["id"]?.stringValue }, ["kept", "gone", "b1", "b2", "last"])
    }

    func test_CD_166_acknowledgedAttachmentPutSurvivesKill9() throws {
        let r1 = try put("doc", #"{"v":1}"#)
        let big = (0..<1_200_000).map { UInt8($0 % 247) }
        let small = try send("PUT", "/db/doc/a.txt?rev=\(r1)", bytes: Array("hello".utf8), headers: [("Content-Type", "text/plain")])
        XCTAssertEqual(small.status, 201, small.text)
        let large = try send("PUT", "/db/doc/big.bin?rev=\(json(small)["rev"]?.stringValue ?? "")", bytes: big,
                             headers: [("Content-Type", "application/octet-stream")])
        XCTAssertEqual(large.status, 201, large.text)
        try crashAndRestart()
        XCTAssertEqual(try get("/db/doc")["_rev"]?.stringValue, json(large)["rev"]?.stringValue)
        XCTAssertEqual(try send("GET", "/db/doc/a.txt").text, "hello")
        XCTAssertEqual(try send("GET", "/db/doc/big.bin").body, big)
    }
}

