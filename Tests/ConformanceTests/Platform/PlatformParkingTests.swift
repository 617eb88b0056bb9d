import XCTest
import Foundation
import Core

/// Parked requests end to end: long polls (the Datastore API's `await`) park without a thread each, are
/// completed by a storage commit, and are answered when the server drains.
final class PlatformParkingTests: XCTestCase {
    /// The datastore `await` cap is 64 per user, so 1,000 waiters come from 20 users of 50 each.
    static let users = (0..<20).map { "parker\($0)" }

    func threads(of pid: Int32) -> Int {
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("Threads:") } ?? ""
        return Int(line.split(separator: "\t").last.map(String.init) ?? "") ?? -1
    }

    /// A shareable datastore everyone may read, at revision 1 (after its `:acl` grant).
    func publicDatastore(_ ds: DatastoreServer) throws -> String {
        let handle = try ds.createShared(key: "parking-\(UUID().uuidString)")
        let grant = try ds.put(handle, rev: 0, DatastoreServer.grant("public", 1000))
        XCTAssertEqual(grant["rev"]?.int64Value, 1, grant.text)
        return handle
    }

    func sendAwait(_ client: HTTPTestClient, handle: String, rev: Int, token: String) throws {
        let body = DatastoreServer.form([("get_deltas", "{\"cursors\":{\"\(handle)\":\(rev)}}")])
        try client.send(HTTPTestClient.requestBytes("POST", "/1/datastores/await", headers: [
            ("Authorization", "Bearer \(token)"), ("Content-Type", "application/x-www-form-urlencoded")],
            body: Array(body.utf8)))
    }

    func testParkedRequestIsCompletedByACommit() throws {
        let ds = try DatastoreServer()
        defer { ds.server.stop() }
        let handle = try publicDatastore(ds)
        let waiter = try ds.server.connect(timeout: 30)
        try sendAwait(waiter, handle: handle, rev: 1, token: DatastoreServer.tokenB)
        usleep(300_000)
        try ds.put(handle, rev: 1, "[[\"I\",\"t\",\"r1\",{\"x\":{\"I\":\"1\"}}]]")
        let r = DSResponse(try waiter.readResponse())
        XCTAssertEqual(r.status, 200)
        XCTAssertNotNil(r["get_deltas"], r.text)
    }

    func testThousandParkedConnectionsHoldNoThreadsAndAllComplete() throws {
        let ds = try DatastoreServer(extraUsers: Self.users)
        defer { ds.server.stop() }
        let handle = try publicDatastore(ds)
        let pid = ds.server.process.processIdentifier
        usleep(300_000)
        let before = threads(of: pid)
        var clients: [HTTPTestClient] = []
        for (i, user) in Self.users.enumerated() {
            for _ in 0..<50 {
                let c = try ds.server.connect(timeout: 60)
                try sendAwait(c, handle: handle, rev: 1, token: DatastoreServer.token(user))
                clients.append(c)
            }
            if i % 5 == 4 { usleep(50_000) }
        }
        XCTAssertEqual(clients.count, 1000)
        // Let every request arrive and park, then count the server's threads again.
        let deadline = Date().addingTimeInterval(20)
        var parked = 0
        while Date() < deadline {
            let metrics = try ds.server.request("GET", "/metrics").text
            parked = metrics.split(separator: "\n").first { $0.hasPrefix("quartet_http_parked_requests ") }
                .flatMap { Double($0.split(separator: " ").last ?? "") }.map(Int.init) ?? 0
            if parked >= 1000 { break }
            usleep(100_000)
        }
        XCTAssertGreaterThanOrEqual(parked, 1000)
        let during = threads(of: pid)
        XCTAssertLessThan(during - before, 50, "threads before \(before), with 1,000 parked \(during)")

        // One commit completes all of them.
        try ds.put(handle, rev: 1, "[[\"I\",\"t\",\"r1\",{\"x\":{\"I\":\"1\"}}]]", token: DatastoreServer.tokenA)
        var completed = 0
        for c in clients {
            let r = DSResponse(try c.readResponse())
            if r.status == 200, r["get_deltas"] != nil { completed += 1 }
        }
        XCTAssertEqual(completed, 1000)
    }

    func testDrainingAnswersParkedRequests() throws {
        let ds = try DatastoreServer()
        let handle = try publicDatastore(ds)
        let waiter = try ds.server.connect(timeout: 30)
        try sendAwait(waiter, handle: handle, rev: 1, token: DatastoreServer.tokenB)
        usleep(300_000)
        kill(ds.server.process.processIdentifier, SIGTERM)
        let r = try waiter.readResponse()
        XCTAssertEqual(r.status, 200)
        XCTAssertEqual(r.text, "{}")
        ds.server.process.waitUntilExit()
        XCTAssertEqual(ds.server.process.terminationStatus, 0)
        ds.server.stop()
    }
}
