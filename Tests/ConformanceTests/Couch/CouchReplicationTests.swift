import Foundation
import XCTest
import Core

/// Replication between two running Quartet instances with the scripted replicator (`ScriptedReplicator`):
/// push, pull, a conflict made on both sides, resolved on one, and the resolution replicated back.
final class CouchReplicationTests: CouchTestCase {
    private var other: TestServer!

    override func setUpWithError() throws {
        try super.setUpWithError()
        other = try TestServer(environment: ["QUARTET_ADMIN_PASSWORD": Self.password])
    }

    override func tearDown() {
        other?.stop()
        super.tearDown()
    }

    private func endpoint(_ server: TestServer) -> ScriptedReplicator.Endpoint {
        ScriptedReplicator.Endpoint(server: server, database: "db", password: Self.password)
    }

    /// `GET /couch/db/{id}?open_revs=all&revs=true` as JSON on `server`: every leaf with its history.
    private func leaves(_ server: TestServer, _ id: String) throws -> String {
        let r = try server.request("GET", "/couch/db/\(pct(id))?open_revs=all&revs=true",
                                   headers: [("Authorization", Self.basic("admin", Self.password)),
                                             ("Accept", "application/json")])
        XCTAssertEqual(r.status, 200, r.text)
        return ((try? JSONParser.parse(r.body)) ?? .null).serialized()
    }

    private func document(_ server: TestServer, _ path: String) throws -> JSON {
        let r = try server.request("GET", "/couch/db/\(path)", headers: [("Authorization", Self.basic("admin", Self.password))])
        return (try? JSONParser.parse(r.body)) ?? .null
    }

    private func write(_ server: TestServer, _ id: String, _ body: String) throws -> String {
        let r = try server.request("PUT", "/couch/db/\(id)", headers: [("Authorization", Self.basic("admin", Self.password)),
                                                                      ("Content-Type", "application/json")], body: body)
        XCTAssertEqual(r.status, 201, r.text)
        return (r.object["rev"] as? String) ?? ""
    }

    /// Both servers hold the same leaves and histories for `ids`.
    private func assertSame(_ ids: [String], file: StaticString = #filePath, line: UInt = #line) throws {
        for id in ids {
            XCTAssertEqual(try leaves(server, id), try leaves(other, id), id, file: file, line: line)
        }
    }

    func testScriptedReplicationBothWaysWithAConflictResolvedOnOneSide() throws {
        let a = endpoint(server), b = endpoint(other)
        let push = ScriptedReplicator(source: a, target: b), pull = ScriptedReplicator(source: b, target: a)
        // Documents on A, one edited twice and one deleted, then a push to B (which creates its database).
        let one = try write(server, "one", #"{"n":1}"#)
        _ = try write(server, "one", #"{"_rev":"\#(one)","n":2}"#)
        let gone = try write(server, "gone", "{}")
        XCTAssertEqual(try server.request("DELETE", "/couch/db/gone?rev=\(gone)",
                                          headers: [("Authorization", Self.basic("admin", Self.password))]).status, 200)
        for i in 0..<5 { _ = try write(server, "d\(i)", #"{"i":\#(i)}"#) }
        let first = try push.run()
        XCTAssertEqual(first.startSeq, 0)
        XCTAssertEqual(first.changesRead, 7)
        XCTAssertEqual(first.revisionsWritten, 7)
        try assertSame(["one", "gone", "d0", "d4"])
        XCTAssertEqual(try document(other, "one?revs=true")["_revisions"]?["ids"]?.arrayValue?.count, 2)

        // Nothing changed: a re-run starts from its checkpoint and transfers nothing.
        let again = try push.run()
        XCTAssertEqual(again.startSeq, first.lastSeq)
        XCTAssertEqual(again.revisionsWritten, 0)

        // A conflict: the same document edited differently on both sides, then replicated both ways.
        let base = try document(server, "d0")["_rev"]?.stringValue ?? ""
        let onA = try write(server, "d0", #"{"_rev":"\#(base)","side":"a"}"#)
        let onB = try write(other, "d0", #"{"_rev":"\#(base)","side":"b"}"#)
        XCTAssertEqual(try push.run().revisionsWritten, 1)
        XCTAssertEqual(try pull.run().revisionsWritten, 1)
        try assertSame(["d0"])
        let winner = try document(server, "d0?conflicts=true")
        XCTAssertEqual(winner.serialized(), try document(other, "d0?conflicts=true").serialized())
        let loser = winner["_rev"]?.stringValue == onA ? onB : onA
        XCTAssertEqual(winner["_conflicts"]?.serialized(), #"["\#(loser)"]"#)

        // Resolved on B only: the losing leaf deleted and the winner updated; the resolution goes back to A.
        XCTAssertEqual(try other.request("DELETE", "/couch/db/d0?rev=\(loser)",
                                         headers: [("Authorization", Self.basic("admin", Self.password))]).status, 200)
        let resolved = try write(other, "d0", #"{"_rev":"\#(winner["_rev"]?.stringValue ?? "")","side":"merged"}"#)
        let back = try pull.run()
        XCTAssertEqual(back.changesRead, 1)
        XCTAssertEqual(back.revisionsWritten, 2, "the tombstone of the loser and the new winner")
        try assertSame(["d0"])
        let final = try document(server, "d0?conflicts=true")
        XCTAssertEqual(final["_rev"]?.stringValue, resolved)
        XCTAssertEqual(final["side"]?.stringValue, "merged")
        XCTAssertNil(final["_conflicts"])
        // And both directions are now in step.
        XCTAssertEqual(try push.run().revisionsWritten, 0)
        XCTAssertEqual(try pull.run().revisionsWritten, 0)
        try assertSame(["one", "gone", "d0", "d1", "d2", "d3", "d4"])
    }
}
