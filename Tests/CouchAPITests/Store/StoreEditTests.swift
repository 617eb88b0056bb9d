import XCTest
import Core
import Storage
@testable import CouchAPI

/// Interactive and replicated edits through the SQLite store: revision ids, conflicts, winners, copies of
/// the winner, sequence numbers and counters.
final class StoreEditTests: XCTestCase {
    private var fixture: StoreFixture!

    override func setUpWithError() throws {
        fixture = try StoreFixture(self)
        XCTAssertTrue(try fixture.store.createDatabase(name: "db", createdMicros: 1))
    }

    func testInteractiveChainGivesCouchDBRevisionsAndSequences() throws {
        let r1 = fixture.revision(try fixture.put("db", "doc1", #"{"val":"r0"}"#))
        XCTAssertEqual(r1, "1-47f3268e7546965196b57572099f4372")
        let r2 = fixture.revision(try fixture.put("db", "doc1", #"{"_rev":"\#(r1)","val":"r1"}"#))
        XCTAssertEqual(r2, "2-1d8171ab3a91475cfece749291e6f897")
        let r3 = fixture.revision(try fixture.put("db", "doc1", #"{"val":"r2"}"#, rev: r2))
        XCTAssertEqual(r3, "3-3fb0a342d2ce092fdcc77856dbe8a2ef")
        guard case .found(let winner) = try fixture.winner("db", "doc1") else { return XCTFail("no winner") }
        XCTAssertEqual(winner.0, r3)
        XCTAssertFalse(winner.1)
        XCTAssertEqual(winner.2, #"{"val":"r2"}"#)
        XCTAssertNil(winner.3)
        let db = try XCTUnwrap(fixture.database("db"))
        XCTAssertEqual(db.updateSeq, 3)
        XCTAssertEqual(db.docCount, 1)
        let doc = try XCTUnwrap(fixture.document("db", "doc1"))
        XCTAssertEqual(doc.seq, 3)
        XCTAssertEqual(T.texts(doc.tree.revisions(of: try T.rev(r3))?.revisions ?? []), [r3, r2, r1])
        // The old revisions keep their bodies until compaction.
        let old = try fixture.store.read { try $0.revision(documentRowID: doc.rowID, rev: try T.rev(r1)) }
        XCTAssertEqual(old.map { String(decoding: $0.body, as: UTF8.self) }, #"{"val":"r0"}"#)
    }

    func testConflictsConsumeNoSequenceAndStoreNothing() throws {
        let r1 = fixture.revision(try fixture.put("db", "d", #"{"a":1}"#))
        _ = try fixture.put("db", "d", #"{"a":2}"#, rev: r1)
        XCTAssertEqual(try fixture.put("db", "d", #"{"a":3}"#), .failed(.conflict))
        XCTAssertEqual(try fixture.put("db", "d", #"{"a":3}"#, rev: r1), .failed(.conflict))
        XCTAssertEqual(try fixture.put("db", "new", "{}", rev: "1-" + T.hex("a")), .failed(.conflict))
        XCTAssertEqual(try fixture.database("db")?.updateSeq, 2)
        XCTAssertNil(try fixture.document("db", "new"))
        if case .missing = try fixture.winner("db", "new") {} else { XCTFail("expected missing") }
        if case .noDatabase = try fixture.winner("nodb", "new") {} else { XCTFail("expected no database") }
    }

    func testDeletionAndRecreationContinueFromTheTombstone() throws {
        let r1 = fixture.revision(try fixture.put("db", "fs", #"{"x":1}"#))
        let tomb = fixture.revision(try fixture.put("db", "fs", #"{"_deleted":true}"#, rev: r1))
        guard case .found(let winner) = try fixture.winner("db", "fs") else { return XCTFail("no row") }
        XCTAssertTrue(winner.1)
        var db = try XCTUnwrap(fixture.database("db"))
        XCTAssertEqual([db.docCount, db.docDelCount], [0, 1])
        XCTAssertEqual(try fixture.put("db", "fs", #"{"_deleted":true}"#), .failed(.conflict))
        XCTAssertEqual(try fixture.put("db", "fs", #"{"x":2}"#, rev: tomb), .failed(.conflict))
        let again = fixture.revision(try fixture.put("db", "fs", #"{"x":2}"#))
        XCTAssertTrue(again.hasPrefix("3-"))
        db = try XCTUnwrap(fixture.database("db"))
        XCTAssertEqual([db.docCount, db.docDelCount, db.updateSeq], [1, 0, 3])
    }

    func testGenerationOneTombstone() throws {
        XCTAssertEqual(fixture.revision(try fixture.put("db", "t", #"{"_deleted":true}"#)),
                       "1-de715bf126efc93d225d9e3f8e8eb81a")
        XCTAssertEqual(try fixture.database("db")?.docDelCount, 1)
    }

    func testReplicatedLeavesMakeAConflictAndTheWinnerFollowsTheRule() throws {
        let x = "1-" + T.hex("1"), a = T.hex("a"), f = T.hex("f")
        let low = try fixture.apply("db", [Edits.replicated("c", #"{"_revisions":{"start":2,"ids":["\#(a)","\#(T.hex("1"))"]},"v":"a"}"#)])
        XCTAssertEqual(low, [.ok(try T.rev("2-" + a))])
        _ = try fixture.apply("db", [Edits.replicated("c", #"{"_revisions":{"start":2,"ids":["\#(f)","\#(T.hex("1"))"]},"v":"f"}"#)])
        guard case .found(let winner) = try fixture.winner("db", "c") else { return XCTFail("no row") }
        XCTAssertEqual(winner.0, "2-" + f)
        XCTAssertEqual(winner.2, #"{"v":"f"}"#)
        let doc = try XCTUnwrap(fixture.document("db", "c"))
        XCTAssertEqual(T.texts(doc.tree.conflicts), ["2-" + a])
        XCTAssertFalse(doc.tree.node(try T.rev(x))?.hasBody ?? true)
        // Already present: success, nothing consumed.
        let seq = try fixture.database("db")?.updateSeq
        XCTAssertEqual(try fixture.apply("db", [Edits.replicated("c", #"{"_rev":"2-\#(f)","v":"again"}"#)]),
                       [.ok(try T.rev("2-" + f))])
        XCTAssertEqual(try fixture.database("db")?.updateSeq, seq)
        // Deleting the winning leaf hands the copy to the other branch.
        _ = try fixture.put("db", "c", #"{"_deleted":true}"#, rev: "2-" + f)
        guard case .found(let after) = try fixture.winner("db", "c") else { return XCTFail("no row") }
        XCTAssertEqual(after.0, "2-" + a)
        XCTAssertEqual(after.2, #"{"v":"a"}"#)
        XCTAssertEqual(try fixture.database("db")?.docCount, 1)
    }

    func testReplicatedRevisionIdsAreNormalisedToLowercase() throws {
        let upper = "1-47F3268E7546965196B57572099F4372"
        XCTAssertEqual(try fixture.apply("db", [Edits.replicated("u", #"{"_rev":"\#(upper)"}"#)]),
                       [.ok(try T.rev(upper.lowercased()))])
        guard case .found(let winner) = try fixture.winner("db", "u") else { return XCTFail("no row") }
        XCTAssertEqual(winner.0, upper.lowercased())
    }

    func testStemmingDropsOldRevisionsAndTheirBodies() throws {
        XCTAssertTrue(try fixture.store.setRevsLimit(database: "db", limit: 2))
        var rev = fixture.revision(try fixture.put("db", "s", #"{"n":0}"#))
        let first = rev
        for n in 1..<4 { rev = fixture.revision(try fixture.put("db", "s", #"{"n":\#(n)}"#, rev: rev)) }
        let doc = try XCTUnwrap(fixture.document("db", "s"))
        XCTAssertEqual(doc.tree.count, 2)
        XCTAssertFalse(doc.tree.contains(try T.rev(first)))
        let count = try fixture.storage.read { db in
            try db.queryOne("SELECT count(*) FROM couch_revs WHERE doc_rowid = ?", [.integer(doc.rowID)])?[0].int64
        }
        XCTAssertEqual(count, 2)
    }

    func testEditsOfOneJobSeeEachOtherAndEachTakesASequence() throws {
        let outcomes = try fixture.apply("db", [Edits.interactive("0", "{}"), Edits.interactive("1", "{}"),
                                                Edits.interactive("1", "{}")])
        XCTAssertEqual(outcomes.last, .failed(.conflict))
        XCTAssertEqual(try fixture.database("db")?.updateSeq, 2)
        XCTAssertEqual(try fixture.document("db", "1")?.seq, 2)
    }

    func testAJobOnADeletedDatabaseFails() throws {
        XCTAssertThrowsError(try fixture.apply("nosuch", [Edits.interactive("a", "{}")])) {
            XCTAssertEqual($0 as? CouchError, .databaseMissing)
        }
    }

    func testCommitsAreAnnouncedWithTheNewSequence() throws {
        let db = try XCTUnwrap(fixture.database("db"))
        let events = Collector<ChangeEvent>()
        let subscription = fixture.storage.changes.subscribe(CouchTopics.database(db.id)) { events.append($0) }
        defer { subscription.cancel() }
        _ = try fixture.apply("db", [Edits.interactive("a", "{}"), Edits.interactive("b", "{}")])
        _ = try fixture.put("db", "a", "{}")   // a conflict: no event
        _ = try fixture.put("db", "c", "{}")
        // Events go out on the completion queue right after the completions.
        let deadline = Date().addingTimeInterval(5)
        while events.all.count < 2, Date() < deadline { usleep(1000) }
        XCTAssertEqual(events.all.map(\.sequence), [2, 3])
    }
}
