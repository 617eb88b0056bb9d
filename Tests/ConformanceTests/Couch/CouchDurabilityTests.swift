import Foundation
import XCTest
import Core
#if canImport(Glibc)
import Glibc
#endif

/// Checklist CD-166: an acknowledged write survives `kill -9` (spec §5.10), standalone attachment and multipart
/// `PUT`s included (small and spooled bodies). CD-167: a write killed before its answer is all or nothing, and
/// no temporary file outlives the restart.
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

    func test_CD_166_acknowledgedMultipartPutSurvivesKill9() throws {
        let big = (0..<900_000).map { UInt8($0 % 251) }
        let document = #"{"v":1,"_attachments":{"a.txt":{"follows":true,"length":5},"big.bin":{"follows":true,"length":900000}}}"#
        let body = MultipartTestBody.build([MultipartTestBody.Part(["Content-Type: application/json"], document),
                                            MultipartTestBody.Part([], "hello"), MultipartTestBody.Part([], big)])
        let r = try send("PUT", "/db/mp", bytes: body, headers: [("Content-Type", MultipartTestBody.contentType)])
        XCTAssertEqual(r.status, 201, r.text)
        try crashAndRestart()
        XCTAssertEqual(try get("/db/mp")["_rev"]?.stringValue, json(r)["rev"]?.stringValue)
        XCTAssertEqual(try send("GET", "/db/mp/a.txt").text, "hello")
        XCTAssertEqual(try send("GET", "/db/mp/big.bin").body, big)
    }

    /// The temporary files of the data directory: spooled bodies and parts, blobs being written.
    private func temporaryFiles() -> [String] {
        let fm = FileManager.default
        let data = server.dataDirectory
        let spools = (try? fm.contentsOfDirectory(atPath: data.appendingPathComponent("tmp").path)) ?? []
        let blobs = (try? fm.contentsOfDirectory(atPath: data.appendingPathComponent("blobs/tmp").path)) ?? []
        return spools + blobs
    }

    /// Sends `request` on its own connection and kills the server `delay` microseconds later, whether or not the
    /// answer came; then restarts it on the same data. Returns the status of an answer the server had sent
    /// before it died (nil: killed before answering).
    @discardableResult
    private func killDuring(_ request: [UInt8], delay: UInt32) throws -> Int? {
        let client = try server.connect()
        try client.send(request)
        usleep(delay)
        try crashAndRestart()
        // What the dead server sent is still in the socket's receive buffer; a partial answer counts as none.
        let answered = try? client.readResponse()
        client.close()
        return answered?.status
    }

    /// A `_bulk_docs` body of `count` documents with ids `{prefix}-00000…`, every tenth with an inline attachment so
    /// that blobs are being written too.
    private func bulkBody(prefix: String, count: Int) -> [UInt8] {
        let docs = (0..<count).map { i in
            let data = Data("\(prefix)-\(i)".utf8).base64EncodedString()
            let attachment = i % 10 == 0 ? #","_attachments":{"a.bin":{"data":"\#(data)"}}"# : ""
            return #"{"_id":"\#(prefix)-\#(String(format: "%05d", i))","n":\#(i),"pad":"\#(String(repeating: "x", count: 200))"\#(attachment)}"#
        }
        return Array(#"{"docs":[\#(docs.joined(separator: ","))]}"#.utf8)
    }

    func test_CD_167_killDuringLargeBulkDocsIsAllOrNothing() throws {
        let count = 2000
        // How long one such request takes here, so that the kills fall inside it whatever the machine's speed.
        let started = Date()
        let timed = try send("POST", "/db/_bulk_docs", bytes: bulkBody(prefix: "t", count: count))
        XCTAssertEqual(timed.status, 201)
        let micros = Date().timeIntervalSince(started) * 1_000_000
        var outcomes: [Int] = [count]
        var killedBeforeCommit = 0
        for (round, fraction) in [0.0, 0.2, 0.4, 0.6, 0.8, 0.95].enumerated() {
            let auth = ("Authorization", Self.basic("admin", Self.password))
            let answered = try killDuring(HTTPTestClient.requestBytes("POST", "/couch/db/_bulk_docs",
                                                                       headers: [auth, ("Content-Type", "application/json")],
                                                                       body: bulkBody(prefix: "r\(round)", count: count)),
                                          delay: UInt32(micros * fraction))
            let rows = try get("/db/_all_docs?startkey=" + pct(#""r\#(round)-""#) + "&endkey=" + pct(#""r\#(round)-~""#))
            let stored = rows["rows"]?.arrayValue?.count ?? -1
            XCTAssertTrue(stored == 0 || stored == count, "round \(round): \(stored) of \(count) documents survived")
            // An acknowledged request is stored whole; one killed unanswered may have committed or not.
            if let answered {
                XCTAssertEqual(answered, 201, "round \(round)")
                XCTAssertEqual(stored, count, "round \(round): acknowledged, so all of it survives")
            } else if stored == 0 {
                killedBeforeCommit += 1
            }
            if stored == count {
                XCTAssertEqual(try send("GET", "/db/r\(round)-00010/a.bin").text, "r\(round)-10")
            }
            XCTAssertEqual(temporaryFiles(), [], "round \(round)")
            outcomes.append(stored)
            print("CD-167 kill at \(Int(fraction * 100))% of \(Int(micros / 1000)) ms: \(stored) of \(count) documents")
        }
        // The case this test is about happened: a kill in the middle of a request, before its commit.
        XCTAssertGreaterThan(killedBeforeCommit, 0, "every request committed before its kill: \(outcomes)")
        // Sequence numbers stay dense: every surviving request's documents and nothing else.
        XCTAssertEqual(try info()["update_seq"]?.int64Value, Int64(outcomes.reduce(0, +)))
    }

    func test_CD_167_killDuringMultipartPutIsAllOrNothing() throws {
        let big = (0..<2_000_000).map { UInt8($0 % 253) }
        let document = #"{"_attachments":{"big.bin":{"follows":true,"length":2000000}}}"#
        let body = MultipartTestBody.build([MultipartTestBody.Part(["Content-Type: application/json"], document),
                                            MultipartTestBody.Part([], big)])
        let auth = ("Authorization", Self.basic("admin", Self.password))
        let request = HTTPTestClient.requestBytes("PUT", "/couch/db/mp", headers: [auth, ("Content-Type", MultipartTestBody.contentType)],
                                                  body: body)
        // Half the body: the server is spooling it when killed.
        try killDuring(Array(request.prefix(request.count / 2)), delay: 100_000)
        assertError(try send("GET", "/db/mp"), 404, "not_found", "missing")
        XCTAssertEqual(temporaryFiles(), [])
        // The whole body, killed at several points while it is read, checked, stored and committed.
        for delay in [UInt32(0), 10_000, 40_000, 120_000] {
            try killDuring(request, delay: delay)
            let r = try send("GET", "/db/mp/big.bin")
            if r.status == 200 {
                XCTAssertEqual(r.body, big, "delay \(delay)")
                break
            }
            assertError(try send("GET", "/db/mp"), 404, "not_found", "missing")
            XCTAssertEqual(temporaryFiles(), [], "delay \(delay)")
        }
        XCTAssertEqual(temporaryFiles(), [])
    }
}
