import Foundation
import XCTest
@testable import Storage

final class StorageCloseTests: XCTestCase {
    func testCloseFromCompletionHandlerDoesNotDeadlock() throws {
        let (storage, _) = try makeStorage(self)
        let closed = DispatchSemaphore(value: 0)
        storage.write({ _ in 1 }, completion: { _ in
            storage.close()
            closed.signal()
        })
        XCTAssertEqual(closed.wait(timeout: .now() + 10), .success)
        assertStorageError(try storage.writeAndWait { _ in 1 }) { $0 == .closed }
    }

    func testCloseCheckpointsTheWAL() throws {
        let (storage, dir) = try makeStorage(self)
        try storage.writeAndWait { ctx in
            try ctx.db.execute("CREATE TABLE t (n)")
            for i in 0..<100 { try ctx.db.run("INSERT INTO t VALUES (?)", [.integer(Int64(i))]) }
        }
        storage.close()
        // Everything is in the main file: the WAL is gone or empty.
        XCTAssertEqual(FileIO.fileSize(dir + "/test.sqlite3-wal") ?? 0, 0)
        let db = try Database(path: dir + "/test.sqlite3", readOnly: true)
        XCTAssertEqual(try db.queryOne("SELECT count(*) FROM t")?[0], .integer(100))
    }

    /// A closed storage, its writer, connections and change bus are freed once the last reference goes:
    /// nothing the writer thread or a subscription holds keeps them (the writer's thread closure once did).
    func testAClosedStorageIsFreed() throws {
        let dir = try makeTemporaryDirectory(self)
        weak var freed: Storage?
        weak var freedBus: ChangeBus?
        func openUseAndClose() throws {
            let storage = try Storage(options: StorageOptions(path: dir + "/free.sqlite3"), logger: quietLogger)
            freed = storage
            freedBus = storage.changes
            let subscription = storage.changes.subscribe("t") { _ in }
            try storage.writeAndWait { ctx in try ctx.db.execute("CREATE TABLE t (n)") }
            _ = try storage.read { db in try db.queryOne("SELECT count(*) FROM t") }
            subscription.cancel()
            storage.close()
        }
        try openUseAndClose()
        // The writer thread lets go of its writer when its closure returns, just after `close()` saw it
        // finish: wait for that (bounded) rather than race it.
        let deadline = Date().addingTimeInterval(10)
        while freedBus != nil, Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        XCTAssertNil(freed)
        XCTAssertNil(freedBus)
    }
}
