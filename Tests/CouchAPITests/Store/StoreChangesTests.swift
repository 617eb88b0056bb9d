import XCTest
import Core
import Storage
import HTTP
@testable import CouchAPI

/// The changes index in the SQLite store (spec §3.11.2, §7) and the pages `_changes` reads from it.
final class StoreChangesTests: XCTestCase {
    /// Database `db` with `a`, `b`, `_design/d`, then `a` updated: sequences b=2, _design/d=3, a=4.
    private func fixture() throws -> (StoreFixture, Int64) {
        let fixture = try StoreFixture(self)
        XCTAssertTrue(try fixture.store.createDatabase(name: "db", createdMicros: 1))
        let first = fixture.revision(try fixture.put("db", "a", "{}"))
        _ = try fixture.put("db", "b", "{}")
        _ = try fixture.put("db", "_design/d", "{}")
        _ = try fixture.put("db", "a", #"{"v":2}"#, rev: first)
        return (fixture, try XCTUnwrap(fixture.database("db")).id)
    }

    private func read(_ fixture: StoreFixture, _ read: ChangesRead) throws -> [String] {
        try fixture.store.read { try $0.changes(read) }.map { "\($0.seq):\($0.id)" }
    }

    func testRowsInSequenceOrderOncePerDocumentWithSelectionsAndDirection() throws {
        let (fixture, id) = try fixture()
        XCTAssertEqual(try read(fixture, ChangesRead(databaseID: id, from: 0, limit: 10)), ["2:b", "3:_design/d", "4:a"])
        XCTAssertEqual(try read(fixture, ChangesRead(databaseID: id, from: 2, limit: 1)), ["3:_design/d"])
        XCTAssertEqual(try read(fixture, ChangesRead(databaseID: id, from: .max, descending: true, limit: 10)),
                       ["4:a", "3:_design/d", "2:b"])
        XCTAssertEqual(try read(fixture, ChangesRead(databaseID: id, from: 4, descending: true, limit: 1)), ["3:_design/d"])
        XCTAssertEqual(try read(fixture, ChangesRead(databaseID: id, from: 0, selection: .documentIDs(["a", "x", "b"]),
                                                     limit: 10)), ["2:b", "4:a"])
        XCTAssertEqual(try read(fixture, ChangesRead(databaseID: id, from: 0, selection: .design, limit: 10)),
                       ["3:_design/d"])
        XCTAssertEqual(try read(fixture, ChangesRead(databaseID: id + 1, from: 0, limit: 10)), [])
    }

    func testRowsCarryTreesAndDocumentsOnlyWhenAsked() throws {
        let (fixture, id) = try fixture()
        let plain = try fixture.store.read { try $0.changes(ChangesRead(databaseID: id, from: 3, limit: 1)) }
        XCTAssertNil(plain.first?.tree)
        XCTAssertNil(plain.first?.body)
        let full = try fixture.store.read {
            try $0.changes(ChangesRead(databaseID: id, from: 3, limit: 1, includeTree: true, includeDocument: true))
        }
        XCTAssertEqual(full.first?.tree?.leavesInWinnerOrder.count, 1)
        XCTAssertEqual(full.first.map { String(decoding: $0.body ?? [], as: UTF8.self) }, #"{"v":2}"#)
        XCTAssertEqual(full.first?.rev.hasPrefix("2-"), true)
    }

    func testCountsAndIncarnations() throws {
        let (fixture, id) = try fixture()
        XCTAssertEqual(try fixture.store.read { try $0.changeCount(databaseID: id, after: 2, before: nil) }, 2)
        XCTAssertEqual(try fixture.store.read { try $0.changeCount(databaseID: id, after: nil, before: 4) }, 2)
        XCTAssertEqual(try fixture.store.read { try $0.changeCount(databaseID: id, after: 2, before: 4) }, 1)
        XCTAssertEqual(try fixture.store.read { try $0.database(id: id) }?.name, "db")
        XCTAssertTrue(try fixture.store.deleteDatabase(name: "db"))
        XCTAssertTrue(try fixture.store.createDatabase(name: "db", createdMicros: 2))
        XCTAssertNil(try fixture.store.read { try $0.database(id: id) }, "a re-created database is another incarnation")
    }

    func testPagesReportWhereTheFeedStands() throws {
        let (fixture, id) = try fixture()
        func page(_ options: String, after: Int64, rowsLeft: Int?) throws -> ChangesPage {
            let parsed = try ChangesOptions(QueryParameters(form: FormParameters.parse(Substring(options))), maxWait: 60_000)
            return try fixture.store.read {
                try ChangesScan.page($0, databaseID: id, options: parsed, selection: parsed.selection(), after: after,
                                     rowsLeft: rowsLeft, attachments: AttachmentSource(blobs: fixture.blobs, budget: 1 << 20))
            }
        }
        let all = try page("", after: 0, rowsLeft: nil)
        XCTAssertEqual([all.lastSeq, all.pending], [4, 0])
        XCTAssertTrue(all.isFinal)
        let limited = try page("", after: 0, rowsLeft: 1)
        XCTAssertEqual([limited.lastSeq, limited.pending], [2, 2])
        XCTAssertTrue(limited.limitReached)
        // A filter passes over the other changes, and the feed still stands at update_seq.
        let filtered = try page("filter=_design", after: 3, rowsLeft: nil)
        XCTAssertEqual(filtered.rows.count, 0)
        XCTAssertEqual(filtered.lastSeq, 4)
        // Beyond update_seq the feed stays where it was asked to start.
        XCTAssertEqual(try page("", after: 9, rowsLeft: nil).lastSeq, 9)
        let newest = try page("descending=true", after: .max, rowsLeft: 2)
        XCTAssertEqual(newest.rows.map(\.seq), [4, 3])
        XCTAssertEqual([newest.lastSeq, newest.pending], [3, 1])
        let oldest = try page("descending=true", after: .max, rowsLeft: nil)
        XCTAssertEqual(oldest.lastSeq, 2)
        XCTAssertTrue(try fixture.store.deleteDatabase(name: "db"))
        XCTAssertTrue(try page("", after: 4, rowsLeft: nil).databaseGone)
    }
}
