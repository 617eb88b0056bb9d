import XCTest
import Core
import Storage
@testable import CouchAPI

/// Many writers at once: group commit, sequences in commit order, and the one-winner rule for a race.
final class StoreConcurrencyTests: XCTestCase {
    func testConcurrentWritesGetDistinctConsecutiveSequences() throws {
        let fixture = try StoreFixture(self)
        _ = try fixture.store.createDatabase(name: "db", createdMicros: 1)
        let outcomes = Collector<EditOutcome>()
        DispatchQueue.concurrentPerform(iterations: 64) { i in
            let outcome = try? fixture.put("db", "doc\(i)", #"{"i":\#(i)}"#)
            outcomes.append(outcome ?? .failed(.internalError))
        }
        XCTAssertEqual(outcomes.all.filter { if case .ok = $0 { return true } else { return false } }.count, 64)
        XCTAssertEqual(try fixture.database("db")?.updateSeq, 64)
        let seqs = try fixture.storage.read { db in
            try db.query("SELECT seq FROM couch_docs ORDER BY seq").compactMap { $0[0].int64 }
        }
        XCTAssertEqual(seqs, Array(1...64))
    }

    func testConcurrentEditsOfOneRevisionHaveExactlyOneWinner() throws {
        let fixture = try StoreFixture(self)
        _ = try fixture.store.createDatabase(name: "db", createdMicros: 1)
        let r1 = fixture.revision(try fixture.put("db", "d", "{}"))
        let outcomes = Collector<EditOutcome>()
        DispatchQueue.concurrentPerform(iterations: 50) { i in
            outcomes.append((try? fixture.put("db", "d", #"{"i":\#(i)}"#, rev: r1)) ?? .failed(.internalError))
        }
        XCTAssertEqual(outcomes.all.filter { $0 == .failed(.conflict) }.count, 49)
        XCTAssertEqual(try fixture.database("db")?.updateSeq, 2)
    }
}
