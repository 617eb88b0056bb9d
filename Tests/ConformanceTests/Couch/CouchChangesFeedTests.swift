import Foundation
import XCTest
import Core
#if canImport(Glibc)
import Glibc
#endif

/// Checklist CD-152…CD-158 and CD-181: the waiting feeds — longpoll, continuous, eventsource — woken by
/// commits, with heartbeats, time-outs and the end of a deleted database (spec §3.11.4–3.11.7).
final class CouchChangesFeedTests: CouchTestCase {
    /// A write from another thread after `delay` seconds.
    private func write(_ id: String, after delay: TimeInterval, db: String = "db") {
        let server = self.server!
        let auth = Self.basic("admin", Self.password)
        DispatchQueue.global().asyncAfter(deadline: .now() + delay) {
            _ = try? server.request("PUT", "/couch/\(db)/\(id)", headers: [("Authorization", auth),
                                                                           ("Content-Type", "application/json")],
                                    body: "{}")
        }
    }

    private func feed(_ path: String, headers: [(String, String)] = [], timeout: TimeInterval = 10) throws -> CouchFeedClient {
        try CouchFeedClient(server, path, headers: headers, password: Self.password, timeout: timeout)
    }

    private func parse(_ line: String) -> JSON { (try? JSONParser.parse(Array(line.utf8))) ?? .null }

    func test_CD_152_longpollFromNowWaitsForTheNextWrite() throws {
        try put("old", "{}")
        write("new", after: 1)
        let started = Date()
        let r = try send("GET", "/db/_changes?feed=longpoll&since=now")
        XCTAssertGreaterThan(Date().timeIntervalSince(started), 0.8)
        XCTAssertEqual(r.status, 200)
        XCTAssertEqual(r.header("Content-Type"), "application/json")
        let body = json(r)
        XCTAssertEqual(body["results"]?.arrayValue?.compactMap { $0["id"]?.stringValue }, ["new"])
        XCTAssertEqual(body["last_seq"]?.int64Value, 2)
        XCTAssertEqual(body["pending"]?.int64Value, 0)
        // With rows after `since` it answers at once.
        XCTAssertEqual(json(try send("GET", "/db/_changes?feed=longpoll&since=0"))["results"]?.arrayValue?.count, 2)
    }

    func test_CD_152_longpollFromBeyondUpdateSeqWaitsUntilTheFeedPassesIt() throws {
        try put("a", "{}")
        // since=3 on a database at 1: the writes with sequences 2 and 3 do not answer it, the one with 4 does.
        let server = self.server!
        let auth = Self.basic("admin", Self.password)
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.5) {
            for id in ["b", "c", "d"] {
                _ = try? server.request("PUT", "/couch/db/\(id)", headers: [("Authorization", auth),
                                                                          ("Content-Type", "application/json")], body: "{}")
                usleep(200_000)
            }
        }
        let body = json(try send("GET", "/db/_changes?feed=longpoll&since=3"))
        XCTAssertEqual(body["results"]?.arrayValue?.compactMap { $0["id"]?.stringValue }, ["d"])
        XCTAssertEqual(body["last_seq"]?.int64Value, 4)
    }

    func test_CD_152_aFilteredLongpollIgnoresOtherDocumentsAndWithAHeartbeatStreams() throws {
        write("other", after: 0.3)
        write("wanted", after: 0.8)
        let r = try send("GET", "/db/_changes?feed=longpoll&since=now&filter=_doc_ids&doc_ids=\(pct(#"["wanted"]"#))")
        XCTAssertEqual(json(r)["results"]?.arrayValue?.compactMap { $0["id"]?.stringValue }, ["wanted"])
        XCTAssertEqual(json(r)["last_seq"]?.int64Value, 2)
        // With a heartbeat the answer starts at once and whitespace keeps it valid JSON.
        write("late", after: 0.5)
        let client = try feed("/db/_changes?feed=longpoll&since=now&heartbeat=100")
        XCTAssertEqual(client.head.status, 200)
        XCTAssertEqual(client.head.header("Transfer-Encoding"), "chunked")
        let text = try client.rest()
        XCTAssertTrue(text.hasPrefix("{\"results\":[\n"), text)
        XCTAssertTrue(text.contains("\n\n"), "no heartbeat: \(text)")
        let body = parse(text)
        XCTAssertEqual(body["results"]?.arrayValue?.compactMap { $0["id"]?.stringValue }, ["late"])
        XCTAssertEqual(body["last_seq"]?.int64Value, 3)
    }

    func test_CD_153_longpollTimeoutWithoutWrites() throws {
        try put("a", "{}")
        let started = Date()
        let r = try send("GET", "/db/_changes?feed=longpoll&since=now&timeout=1000")
        let elapsed = Date().timeIntervalSince(started)
        XCTAssertGreaterThan(elapsed, 0.9)
        XCTAssertLessThan(elapsed, 8)
        XCTAssertEqual(compact(r), #"{"results":[],"last_seq":1,"pending":0}"#)
        let immediate = try send("GET", "/db/_changes?feed=longpoll&since=now&timeout=0")
        XCTAssertEqual(compact(immediate), #"{"results":[],"last_seq":1,"pending":0}"#)
    }

    func test_CD_154_continuousWithTimeoutZeroEndsAfterTheBacklogAndTheConnectionIsReused() throws {
        for id in ["a", "b"] { try put(id, "{}") }
        let client = try server.connect()
        let auth = [("Authorization", Self.basic("admin", Self.password))]
        let r = try client.request("GET", "/couch/db/_changes?feed=continuous&timeout=0", headers: auth)
        XCTAssertEqual(r.status, 200)
        XCTAssertEqual(r.header("Transfer-Encoding"), "chunked")
        let lines = CouchFeedClient.lines(r.text)
        XCTAssertEqual(lines.count, 3, r.text)
        XCTAssertEqual(lines.dropLast().map { parse($0)["id"]?.stringValue }, ["a", "b"])
        XCTAssertEqual(lines.last, #"{"last_seq":2,"pending":0}"#)
        XCTAssertTrue(r.text.hasSuffix("\n"))
        // The terminating chunk was sent: the same connection serves the next request.
        XCTAssertEqual(try client.request("GET", "/couch/db", headers: auth).status, 200)
        // `live` is `continuous`.
        let live = try client.request("GET", "/couch/db/_changes?feed=live&timeout=0&since=1", headers: auth)
        XCTAssertEqual(CouchFeedClient.lines(live.text).count, 2, live.text)
    }

    func test_CD_155_continuousHeartbeatsThenTheRow() throws {
        write("late", after: 0.3)
        let client = try feed("/db/_changes?feed=continuous&heartbeat=100")
        defer { client.close() }
        var heartbeats = 0
        while let chunk = try client.chunk() {
            if chunk == "\n" { heartbeats += 1; continue }
            XCTAssertEqual(parse(chunk)["id"]?.stringValue, "late", chunk)
            break
        }
        XCTAssertGreaterThanOrEqual(heartbeats, 1)
        // Still open: heartbeats keep coming (heartbeat overrides the time-out).
        XCTAssertEqual(try client.chunk(), "\n")
    }

    func test_CD_156_continuousLimitEndsTheFeed() throws {
        for id in ["a", "b", "c", "d", "e"] { try put(id, "{}") }
        let r = try send("GET", "/db/_changes?feed=continuous&limit=2")
        let lines = CouchFeedClient.lines(r.text)
        XCTAssertEqual(lines.count, 3, r.text)
        XCTAssertEqual(lines.dropLast().map { parse($0)["seq"]?.int64Value }, [1, 2])
        XCTAssertEqual(lines.last, #"{"last_seq":2,"pending":3}"#)
        // A limit reached by later writes ends it too.
        write("f", after: 0.3)
        write("g", after: 0.6)
        let late = try send("GET", "/db/_changes?feed=continuous&since=now&limit=2")
        XCTAssertEqual(CouchFeedClient.lines(late.text).map { parse($0)["id"]?.stringValue ?? "end" }, ["f", "g", "end"])
    }

    func test_CD_157_manyIdleLongpollsHoldNoThreadsAndOneWriteWakesThemAll() throws {
        try put("a", "{}")
        let count = 10_000
        let pid = server.process.processIdentifier
        let threadsBefore = try threads(pid)
        let auth = [("Authorization", Self.basic("admin", Self.password))]
        var clients: [HTTPTestClient] = []
        for _ in 0..<count {
            let client = try server.connect(timeout: 30)
            try client.send(HTTPTestClient.requestBytes("GET", "/couch/db/_changes?feed=longpoll&since=1", headers: auth))
            clients.append(client)
        }
        // Other requests are served while they wait.
        let started = Date()
        XCTAssertEqual(try send("GET", "/db").status, 200)
        XCTAssertLessThan(Date().timeIntervalSince(started), 5)
        XCTAssertLessThan(try threads(pid), threadsBefore + 16, "threads grew with the number of waiting feeds")
        try put("b", "{}")
        for client in clients {
            let r = try client.readResponse()
            XCTAssertEqual(r.status, 200)
            XCTAssertEqual(compactIDs(r), ["b"])
        }
    }

    private func compactIDs(_ r: TestResponse) -> [String] {
        json(r)["results"]?.arrayValue?.compactMap { $0["id"]?.stringValue } ?? []
    }

    /// The thread count of process `pid` (`/proc/{pid}/status`).
    private func threads(_ pid: Int32) throws -> Int {
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        let line = status.split(separator: "\n").first { $0.hasPrefix("Threads:") } ?? ""
        return Int(line.dropFirst("Threads:".count).trimmingCharacters(in: .whitespaces)) ?? 0
    }

    func test_CD_158_deletingTheDatabaseEndsItsFeeds() throws {
        try put("a", "{}")
        let continuous = try feed("/db/_changes?feed=continuous")
        XCTAssertEqual(parse(try continuous.chunk() ?? "")["id"]?.stringValue, "a")
        let server = self.server!
        let auth = Self.basic("admin", Self.password)
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.5) {
            _ = try? server.request("DELETE", "/couch/db", headers: [("Authorization", auth)])
        }
        let longpoll = try send("GET", "/db/_changes?feed=longpoll&since=now")
        XCTAssertEqual(compact(longpoll), #"{"results":[],"last_seq":1,"pending":0}"#)
        XCTAssertEqual(CouchFeedClient.lines(try continuous.rest()), [#"{"last_seq":1,"pending":0}"#])
        // A database of the same name is another incarnation: a new feed starts from nothing.
        try send("PUT", "/db")
        XCTAssertEqual(compact(try send("GET", "/db/_changes")), #"{"results":[],"last_seq":0,"pending":0}"#)
    }

    func test_CD_181_eventsourceRowsHeartbeatsAndLastEventID() throws {
        for id in ["a", "b", "c", "d"] { try put(id, "{}") }
        let client = try feed("/db/_changes?feed=eventsource&heartbeat=100", headers: [("Last-Event-ID", "3")])
        defer { client.close() }
        XCTAssertEqual(client.head.status, 200)
        XCTAssertEqual(client.head.header("Content-Type"), "text/event-stream")
        XCTAssertEqual(client.head.header("Cache-Control"), "no-cache")
        let first = try client.chunk() ?? ""
        XCTAssertTrue(first.hasPrefix("data: {\"seq\":4,\"id\":\"d\","), first)
        XCTAssertTrue(first.hasSuffix("}\nid: 4\n\n"), first)
        XCTAssertEqual(try client.chunk(), "event: heartbeat\ndata: \n\n")
        // The parameter works as the header does, and a time-out ends the stream without a summary.
        let r = try send("GET", "/db/_changes?feed=eventsource&last-event-id=2&timeout=200")
        XCTAssertEqual(r.text.components(separatedBy: "data: ").count - 1, 2, r.text)
        XCTAssertTrue(r.text.hasSuffix("id: 4\n\n"), r.text)
    }
}

/// The feed limits: CD-153's upper bound, `timeout` clamped to `couch.changesTimeout` (here 1.5 s instead of
/// the default 60 s), and `couch.maxFeedsPerUser` (here 2).
final class CouchChangesLimitsTests: CouchTestCase {
    override var environment: [String: String] {
        ["QUARTET_COUCH_CHANGES_TIMEOUT": "1500", "QUARTET_COUCH_MAX_FEEDS_PER_USER": "2"]
    }

    func test_CD_153_timeoutIsClampedToTheConfiguredMaximum() throws {
        let started = Date()
        let r = try send("GET", "/db/_changes?feed=longpoll&since=now&timeout=600000")
        XCTAssertEqual(compact(r), #"{"results":[],"last_seq":0,"pending":0}"#)
        XCTAssertLessThan(Date().timeIntervalSince(started), 8)
        // Continuous without a timeout ends at the maximum too, with its summary line.
        let c = try send("GET", "/db/_changes?feed=continuous")
        XCTAssertEqual(CouchFeedClient.lines(c.text), [#"{"last_seq":0,"pending":0}"#])
    }

    func testWaitingFeedsOfOneUserAreCapped() throws {
        let auth = [("Authorization", Self.basic("admin", Self.password))]
        var parked: [HTTPTestClient] = []
        for _ in 0..<2 {
            let client = try server.connect()
            try client.send(HTTPTestClient.requestBytes("GET", "/couch/db/_changes?feed=longpoll&since=now", headers: auth))
            parked.append(client)
        }
        usleep(200_000)
        let third = try send("GET", "/db/_changes?feed=longpoll&since=now")
        // Streams are counted apart from long polls.
        XCTAssertEqual(try send("GET", "/db/_changes?feed=continuous&timeout=0").status, 200)
        let answers = try parked.map { try $0.readResponse() } + [third]
        // Whichever came last of the three (normally the third) is refused.
        XCTAssertEqual(answers.map(\.status).sorted(), [200, 200, 503])
        if let refused = answers.first(where: { $0.status == 503 }) { assertError(refused, 503, "service_unavailable") }
        // Answered long polls free their places.
        XCTAssertEqual(try send("GET", "/db/_changes?feed=longpoll&since=now&timeout=0").status, 200)
    }
}
