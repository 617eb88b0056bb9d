import Foundation
import XCTest
import Core

/// Checklist CD-168: concurrent writers of one revision (spec §5.10).
final class CouchConcurrencyTests: CouchTestCase {
    func test_CD_168_fiftyConcurrentUpdatesOfOneRevisionHaveOneWinner() throws {
        let rev = try put("doc", #"{"n":0}"#)
        let statuses = StatusList()
        let server = self.server!
        let auth = Self.basic("admin", Self.password)
        DispatchQueue.concurrentPerform(iterations: 50) { i in
            let r = try? server.request("PUT", "/couch/db/doc", headers: [("Authorization", auth),
                                                                          ("Content-Type", "application/json")],
                                        body: #"{"_rev":"\#(rev)","n":\#(i + 1)}"#)
            statuses.append(r?.status ?? 0)
        }
        XCTAssertEqual(statuses.all.filter { $0 == 201 }.count, 1, "\(statuses.all)")
        XCTAssertEqual(statuses.all.filter { $0 == 409 }.count, 49, "\(statuses.all)")
        XCTAssertEqual(try info()["update_seq"]?.int64Value, 2)
    }
}

/// Checklist CD-169: concurrent writers and `_changes` readers (spec §5.10, §3.11.2).
final class CouchChangesConcurrencyTests: CouchTestCase {
    func test_CD_169_concurrentWritersAndReadersSeeEachCommittedChangeOnceInOrder() throws {
        let server = self.server!
        let auth = Self.basic("admin", Self.password)
        let headers = [("Authorization", auth), ("Content-Type", "application/json")]
        let hot = try put("hot", #"{"n":0}"#)
        // A continuous feed open during all the writes, and a chain of long polls, each from where the last ended.
        let continuous = try CouchFeedClient(server, "/db/_changes?feed=continuous&heartbeat=200", password: Self.password)
        defer { continuous.close() }
        let accepted = Collected<String>()   // "id rev" of every write answered 201
        let done = DispatchSemaphore(value: 0)
        let polled = Collected<Int64>()
        DispatchQueue.global().async {
            var since: Int64 = 0
            while polled.all.count < 200 {
                guard let r = try? server.request("GET", "/couch/db/_changes?feed=longpoll&timeout=2000&since=\(since)",
                                                  headers: [("Authorization", auth)]),
                      let body = r.object["results"] as? [[String: Any]], let last = (r.object["last_seq"] as? NSNumber)?.int64Value
                else { break }
                body.compactMap { ($0["seq"] as? NSNumber)?.int64Value }.forEach(polled.append)
                if body.isEmpty, since > 0, last == since { break }
                since = last
            }
            done.signal()
        }
        DispatchQueue.concurrentPerform(iterations: 4) { worker in
            var rev: String?
            for i in 0..<15 {
                let id = "w\(worker)"
                let body = rev.map { #"{"_rev":"\#($0)","i":\#(i)}"# } ?? #"{"i":\#(i)}"#
                if let r = try? server.request("PUT", "/couch/db/\(id)", headers: headers, body: body), r.status == 201,
                   let new = r.object["rev"] as? String {
                    rev = new
                    accepted.append("\(id) \(new)")
                }
                // Every worker also updates `hot` from the same first revision: one wins, the rest are 409s.
                if i == 0, let r = try? server.request("PUT", "/couch/db/hot", headers: headers, body: #"{"_rev":"\#(hot)","w":\#(worker)}"#),
                   r.status == 201, let new = r.object["rev"] as? String {
                    accepted.append("hot \(new)")
                }
            }
        }
        let updateSeq = try info()["update_seq"]?.int64Value ?? 0
        XCTAssertEqual(updateSeq, 1 + 60 + 1, "one sequence per committed change, none for the 409s")
        // The continuous feed: strictly increasing, every row a committed revision, up to update_seq.
        var seqs: [Int64] = []
        var lastRev: [String: String] = [:]
        let committed = Set(accepted.all)
        while seqs.last ?? 0 < updateSeq, let chunk = try continuous.chunk() {
            for line in CouchFeedClient.lines(chunk) {
                let row = (try? JSONParser.parse(Array(line.utf8))) ?? .null
                guard let seq = row["seq"]?.int64Value, let id = row["id"]?.stringValue,
                      let rev = row["changes"]?[0]?["rev"]?.stringValue else { continue }
                if let previous = seqs.last { XCTAssertGreaterThan(seq, previous) }
                seqs.append(seq)
                lastRev[id] = rev
                XCTAssertTrue(committed.contains("\(id) \(rev)") || (id == "hot" && rev == hot), "\(id) \(rev)")
            }
        }
        XCTAssertEqual(seqs.last, updateSeq)
        for worker in 0..<4 {
            XCTAssertEqual(lastRev["w\(worker)"], try get("/db/w\(worker)")["_rev"]?.stringValue)
        }
        XCTAssertEqual(lastRev["hot"], try get("/db/hot")["_rev"]?.stringValue)
        // The long polls saw increasing sequences, each once.
        _ = done.wait(timeout: .now() + 30)
        let chain = polled.all
        XCTAssertEqual(chain, chain.sorted())
        XCTAssertEqual(Set(chain).count, chain.count)
        // The final state read at once: each document exactly once, at its latest sequence.
        let all = try get("/db/_changes")["results"]?.arrayValue ?? []
        XCTAssertEqual(all.count, 5)
        XCTAssertEqual(all.last?["seq"]?.int64Value, updateSeq)
    }
}

/// Values collected from several threads.
private final class Collected<T: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [T] = []
    func append(_ item: T) { lock.withLock { items.append(item) } }
    var all: [T] { lock.withLock { items } }
}

/// Statuses collected from several threads.
private final class StatusList: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [Int] = []
    func append(_ status: Int) { lock.withLock { items.append(status) } }
    var all: [Int] { lock.withLock { items } }
}
