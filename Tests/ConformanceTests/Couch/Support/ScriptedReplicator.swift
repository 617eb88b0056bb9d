import Foundation
import XCTest
import Core

/// A replicator written in the test suite that follows the CouchDB replication protocol step by step, as
/// the CouchDB replicator and PouchDB do (spec §5.9): read both databases; find the checkpoint `_local`
/// documents on both sides; then, batch by batch, `_changes?style=all_docs` on the source, `_revs_diff`
/// on the target, `_bulk_get?revs=true&latest=true` on the source, `_bulk_docs` with `new_edits:false` on
/// the target, `_ensure_full_commit` on both, and a new checkpoint on both.
struct ScriptedReplicator {
    /// One end of a replication: a server and a database on it.
    struct Endpoint {
        let server: TestServer
        let database: String
        let password: String

        /// One request to `/couch/{database}{path}` as the admin; the body as JSON (`.null` when empty).
        func call(_ method: String, _ path: String, _ body: JSON? = nil) throws -> (status: Int, json: JSON) {
            var headers = [("Authorization", CouchTestCase.basic("admin", password))]
            if body != nil { headers.append(("Content-Type", "application/json")) }
            let r = try server.request(method, "/couch/\(pct(database))\(path)", headers: headers,
                                       body: body.map { Array($0.serialized().utf8) } ?? [])
            return (r.status, (try? JSONParser.parse(r.body)) ?? .null)
        }

        var url: String { "http://127.0.0.1:\(server.port)/couch/\(database)" }
    }

    /// What one run did.
    struct Report {
        /// Change rows read from the source.
        var changesRead = 0
        /// Revisions the target reported missing (and that were written to it).
        var revisionsWritten = 0
        /// The sequence the run started from (from the checkpoint).
        var startSeq: Int64 = 0
        /// The source sequence of the final checkpoint.
        var lastSeq: Int64 = 0
    }

    let source: Endpoint
    let target: Endpoint
    /// Rows per `_changes` batch (small, so that several batches run).
    var batchSize = 3

    /// The replication id: the same pair of endpoints always finds its own checkpoints.
    var replicationID: String {
        Hex.encode(Crypto.md5(Array("\(source.url) -> \(target.url)".utf8)))
    }

    /// Runs the replication once to the end (one-shot).
    func run(file: StaticString = #filePath, line: UInt = #line) throws -> Report {
        var report = Report()
        let sourceInfo = try source.call("GET", "")
        XCTAssertEqual(sourceInfo.status, 200, file: file, line: line)
        if try target.call("GET", "").status == 404 {
            XCTAssertEqual(try target.call("PUT", "").status, 201, file: file, line: line)
        }
        let checkpointPath = "/_local/\(replicationID)"
        let sourceCheckpoint = try source.call("GET", checkpointPath)
        let targetCheckpoint = try target.call("GET", checkpointPath)
        // Resume only when both sides hold the same session's checkpoint (CouchDB's rule).
        var since: Int64 = 0
        if sourceCheckpoint.status == 200, targetCheckpoint.status == 200,
           let session = sourceCheckpoint.json["session_id"]?.stringValue,
           session == targetCheckpoint.json["session_id"]?.stringValue {
            since = sourceCheckpoint.json["source_last_seq"]?.int64Value ?? 0
        }
        report.startSeq = since
        while true {
            let changes = try source.call("GET", "/_changes?style=all_docs&since=\(since)&limit=\(batchSize)")
            XCTAssertEqual(changes.status, 200, file: file, line: line)
            let rows = changes.json["results"]?.arrayValue ?? []
            guard let lastSeq = changes.json["last_seq"]?.int64Value else {
                XCTFail("no last_seq: \(changes.json.serialized())", file: file, line: line)
                return report
            }
            if rows.isEmpty { break }
            report.changesRead += rows.count
            var revs = JSONObject()
            for row in rows {
                guard let id = row["id"]?.stringValue else { continue }
                revs[id] = .array((row["changes"]?.arrayValue ?? []).compactMap { $0["rev"] })
            }
            let diff = try target.call("POST", "/_revs_diff", .object(revs))
            XCTAssertEqual(diff.status, 200, diff.json.serialized(), file: file, line: line)
            var wanted: [JSON] = []
            for (id, entry) in diff.json.objectValue?.pairs ?? [] {
                for rev in entry["missing"]?.arrayValue ?? [] {
                    wanted.append(.object(JSONObject([("id", .string(id)), ("rev", rev)])))
                }
            }
            if !wanted.isEmpty {
                let fetched = try source.call("POST", "/_bulk_get?revs=true&latest=true",
                                              .object(JSONObject([("docs", .array(wanted))])))
                XCTAssertEqual(fetched.status, 200, fetched.json.serialized(), file: file, line: line)
                var docs: [JSON] = []
                for result in fetched.json["results"]?.arrayValue ?? [] {
                    for doc in result["docs"]?.arrayValue ?? [] {
                        if let ok = doc["ok"] { docs.append(ok) } else { XCTFail("bulk_get: \(doc.serialized())", file: file, line: line) }
                    }
                }
                let written = try target.call("POST", "/_bulk_docs",
                                              .object(JSONObject([("new_edits", .bool(false)), ("docs", .array(docs))])))
                XCTAssertEqual(written.status, 201, written.json.serialized(), file: file, line: line)
                XCTAssertEqual(written.json.arrayValue?.count, 0, "per-document errors: \(written.json.serialized())",
                               file: file, line: line)
                report.revisionsWritten += docs.count
            }
            // A checkpoint must never be durable before the documents it covers (§5.9, §5.10).
            XCTAssertEqual(try target.call("POST", "/_ensure_full_commit", JSON.object(JSONObject())).status, 201,
                           file: file, line: line)
            XCTAssertEqual(try source.call("POST", "/_ensure_full_commit", JSON.object(JSONObject())).status, 201,
                           file: file, line: line)
            try checkpoint(lastSeq, file: file, line: line)
            since = lastSeq
        }
        report.lastSeq = since
        return report
    }

    /// Writes `{session_id, source_last_seq}` to `_local/{replication id}` on both sides.
    private func checkpoint(_ seq: Int64, file: StaticString, line: UInt) throws {
        for end in [source, target] {
            let path = "/_local/\(replicationID)"
            var body = JSONObject()
            let current = try end.call("GET", path)
            if current.status == 200, let rev = current.json["_rev"] { body["_rev"] = rev }
            body["session_id"] = .string(replicationID)
            body["source_last_seq"] = .number(JSONNumber(seq))
            XCTAssertEqual(try end.call("PUT", path, .object(body)).status, 201, file: file, line: line)
        }
    }
}
