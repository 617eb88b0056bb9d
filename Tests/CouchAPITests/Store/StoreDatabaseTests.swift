import XCTest
import Core
import Storage
@testable import CouchAPI

/// Databases, server metadata and `_local` documents in the SQLite store.
final class StoreDatabaseTests: XCTestCase {
    func testServerMetadataIsCreatedOnceAndKept() throws {
        let fixture = try StoreFixture(self)
        let first = fixture.store.metadata
        XCTAssertEqual(first.uuid.utf8.count, 32)
        XCTAssertTrue(first.uuid.allSatisfy { $0.isHexDigit && !$0.isUppercase })
        XCTAssertEqual(first.cookieSecret.count, 32)
        let again = try SQLiteCouchStore(storage: fixture.storage, blobs: fixture.blobs).metadata
        XCTAssertEqual(again.uuid, first.uuid)
        XCTAssertEqual(again.cookieSecret, first.cookieSecret)
    }

    func testCreateTwiceReportsTheExistingDatabaseAndNewOnesStartEmpty() throws {
        let fixture = try StoreFixture(self)
        XCTAssertTrue(try fixture.store.createDatabase(name: "db", createdMicros: 1_700_000_000_123_456))
        XCTAssertFalse(try fixture.store.createDatabase(name: "db", createdMicros: 5))
        let db = try XCTUnwrap(fixture.database("db"))
        XCTAssertEqual(db.instanceStartTime, "1700000000123456")
        XCTAssertEqual([db.updateSeq, db.purgeSeq, db.docCount, db.docDelCount], [0, 0, 0, 0])
        XCTAssertEqual(db.revsLimit, 1000)
        XCTAssertNil(try fixture.database("other"))
    }

    func testDatabaseNamesInByteOrderWithRangesSkipAndLimit() throws {
        let fixture = try StoreFixture(self)
        for name in ["b", "a/x", "a", "c$", "a+b"] { _ = try fixture.store.createDatabase(name: name, createdMicros: 1) }
        func names(_ configure: (inout DatabaseListQuery) -> Void) throws -> [String] {
            var query = DatabaseListQuery()
            configure(&query)
            return try fixture.store.read { try $0.databaseNames(query) }
        }
        XCTAssertEqual(try names { _ in }, ["a", "a+b", "a/x", "b", "c$"])
        XCTAssertEqual(try names { $0.descending = true }, ["c$", "b", "a/x", "a+b", "a"])
        XCTAssertEqual(try names { $0.startKey = "a+"; $0.endKey = "b" }, ["a+b", "a/x", "b"])
        XCTAssertEqual(try names { $0.startKey = "a+"; $0.endKey = "b"; $0.inclusiveEnd = false }, ["a+b", "a/x"])
        XCTAssertEqual(try names { $0.descending = true; $0.startKey = "b"; $0.endKey = "a+b"; $0.inclusiveEnd = false },
                       ["b", "a/x"])
        XCTAssertEqual(try names { $0.skip = 1; $0.limit = 2 }, ["a+b", "a/x"])
        XCTAssertEqual(try names { $0.limit = 0 }, [])
    }

    func testDeleteRemovesEverythingAndARecreatedDatabaseIsANewIncarnation() throws {
        let fixture = try StoreFixture(self)
        _ = try fixture.store.createDatabase(name: "db", createdMicros: 1)
        let before = try XCTUnwrap(fixture.database("db"))
        _ = try fixture.put("db", "a", #"{"x":1}"#)
        XCTAssertTrue(try writeLocal(fixture, "db", "_local/c", 1, #"{"k":1}"#))
        let events = Collector<ChangeEvent>()
        let subscription = fixture.storage.changes.subscribe(CouchTopics.database(before.id)) { events.append($0) }
        defer { subscription.cancel() }
        XCTAssertTrue(try fixture.store.deleteDatabase(name: "db"))
        XCTAssertFalse(try fixture.store.deleteDatabase(name: "db"))
        let deadline = Date().addingTimeInterval(5)
        while events.all.isEmpty, Date() < deadline { usleep(1000) }
        XCTAssertEqual(events.all.map(\.detail), [CouchTopics.deletedDetail])
        XCTAssertEqual(events.all.map(\.sequence), [Int64.max])
        XCTAssertTrue(try fixture.store.createDatabase(name: "db", createdMicros: 2))
        let after = try XCTUnwrap(fixture.database("db"))
        XCTAssertNotEqual(after.id, before.id)
        XCTAssertEqual(after.updateSeq, 0)
        XCTAssertNil(try fixture.document("db", "a"))
        XCTAssertNil(try fixture.store.read { try $0.localDocument(databaseID: after.id, id: "_local/c") })
        let leftovers = try fixture.storage.read { db in try db.queryOne("SELECT count(*) FROM couch_revs")?[0].int64 }
        XCTAssertEqual(leftovers, 0)
    }

    func testRevsLimitIsStored() throws {
        let fixture = try StoreFixture(self)
        _ = try fixture.store.createDatabase(name: "db", createdMicros: 1)
        XCTAssertTrue(try fixture.store.setRevsLimit(database: "db", limit: 5))
        XCTAssertFalse(try fixture.store.setRevsLimit(database: "nosuch", limit: 5))
        XCTAssertEqual(try fixture.database("db")?.revsLimit, 5)
    }

    func testLocalDocumentsOverwriteWithoutConflictsAndNeverTouchTheSequence() throws {
        let fixture = try StoreFixture(self)
        _ = try fixture.store.createDatabase(name: "db", createdMicros: 1)
        let db = try XCTUnwrap(fixture.database("db"))
        XCTAssertTrue(try writeLocal(fixture, "db", "_local/x", 1, #"{"a":1}"#))
        XCTAssertTrue(try writeLocal(fixture, "db", "_local/x", 2, #"{"a":2}"#))
        let stored = try XCTUnwrap(fixture.store.read { try $0.localDocument(databaseID: db.id, id: "_local/x") })
        XCTAssertEqual(stored.rev, 2)
        XCTAssertEqual(String(decoding: stored.body, as: UTF8.self), #"{"a":2}"#)
        XCTAssertTrue(try writeLocal(fixture, "db", "_local/x", 0, nil))
        XCTAssertFalse(try writeLocal(fixture, "db", "_local/x", 0, nil))
        XCTAssertEqual(try fixture.database("db")?.updateSeq, 0)
        XCTAssertThrowsError(try writeLocal(fixture, "nosuch", "_local/x", 1, "{}")) {
            XCTAssertEqual($0 as? CouchError, .databaseMissing)
        }
    }

    private func writeLocal(_ fixture: StoreFixture, _ database: String, _ id: String, _ rev: Int64,
                            _ body: String?) throws -> Bool {
        let done = DispatchSemaphore(value: 0)
        let box = ResultBox<Bool>()
        fixture.store.writeLocal(database: database, id: id, rev: rev, body: body.map { Array($0.utf8) }) {
            box.set($0)
            done.signal()
        }
        done.wait()
        return try box.get()
    }
}

/// A thread-safe list for collecting results from callbacks.
final class Collector<Element: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [Element] = []
    func append(_ item: Element) { lock.withLock { items.append(item) } }
    var all: [Element] { lock.withLock { items } }
}
