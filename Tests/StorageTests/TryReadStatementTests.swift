import Core
import Foundation
import XCTest
@testable import Storage

/// `Storage.tryReadStatement`: reads like `readStatement` when a connection of its pool is free, nil at once
/// when none is.
final class TryReadStatementTests: XCTestCase {
    func testReadsTheNewestCommitLikeReadStatement() throws {
        let (storage, _) = try makeStorage(self)
        try storage.writeAndWait { try $0.db.execute("CREATE TABLE t (n); INSERT INTO t VALUES (1)") }
        XCTAssertEqual(try storage.tryReadStatement { try $0.queryOne("SELECT count(*) FROM t")?[0].int64 }, 1)
        try storage.writeAndWait { try $0.db.run("INSERT INTO t VALUES (2)") }
        XCTAssertEqual(try storage.tryReadStatement { try $0.queryOne("SELECT count(*) FROM t")?[0].int64 }, 2)
    }

    func testNilWithoutWaitingWhenEveryConnectionIsBorrowed() throws {
        let (storage, _) = try makeStorage(self)
        try storage.writeAndWait { try $0.db.execute("CREATE TABLE t (n); INSERT INTO t VALUES (1)") }
        XCTAssertEqual(Storage.immediateReaderCount, 2)
        // Two nested calls hold both connections; the third finds none and must not wait for them.
        let innermost = try storage.tryReadStatement { _ in
            try storage.tryReadStatement { _ in
                try storage.tryReadStatement { db in try db.queryOne("SELECT n FROM t")?[0].int64 }
            }
        }
        guard let innermost, let inner = innermost else { return XCTFail("the two free connections were not lent") }
        XCTAssertTrue(inner == nil, "the third call found no free connection")
        // Given back: lent again.
        XCTAssertEqual(try storage.tryReadStatement { try $0.queryOne("SELECT n FROM t")?[0].int64 }, 1)
    }

    func testThrowsAfterClose() throws {
        let (storage, _) = try makeStorage(self)
        storage.close()
        XCTAssertThrowsError(try storage.tryReadStatement { _ in 1 }) { error in
            XCTAssertEqual(error as? StorageError, .closed)
        }
    }
}

/// `Storage.tryReadStatement` on a thread that runs event-loop passes (`IOPass`): one read transaction per
/// pass, a new snapshot after each commit of this process, nothing held once the pass ends.
final class TryReadStatementPassTests: XCTestCase {
    override func setUp() {
        super.setUp()
        IOPass.enterPasses()
    }

    override func tearDown() {
        IOPass.leavePasses()
        super.tearDown()
    }

    private func count(_ storage: Storage) throws -> Int64? {
        try storage.tryReadStatement { try $0.queryOne("SELECT count(*) FROM t")?[0].int64 } ?? nil
    }

    /// A storage whose table `t` holds one row. The pass is ended before the teardown closes the storage
    /// (teardown blocks run last added first), since closing waits for the connections.
    private func makePassStorage() throws -> (Storage, String) {
        let (storage, dir) = try makeStorage(self)
        addTeardownBlock { IOPass.end() }
        try storage.writeAndWait { try $0.db.execute("CREATE TABLE t (n); INSERT INTO t VALUES (1)") }
        return (storage, dir)
    }

    /// Reads the one row twice, so that the pass's transaction is open.
    private func openThePassTransaction(_ storage: Storage) throws {
        XCTAssertEqual(try count(storage), 1)
        XCTAssertEqual(try count(storage), 1)
    }

    /// Both connections of the pool are free and outside any transaction.
    private func assertBothConnectionsFree(_ storage: Storage, line: UInt = #line) throws {
        let a = try storage.immediate.tryCheckOut()
        let b = try storage.immediate.tryCheckOut()
        XCTAssertNotNil(a, line: line)
        XCTAssertNotNil(b, line: line)
        XCTAssertFalse(a?.isInTransaction ?? true, line: line)
        XCTAssertFalse(b?.isInTransaction ?? true, line: line)
        a.map { storage.immediate.checkIn($0) }
        b.map { storage.immediate.checkIn($0) }
    }

    func testTheReadsOfAPassShareOneTransactionUntilThePassEnds() throws {
        let (storage, _) = try makePassStorage()
        var first: ObjectIdentifier?
        for index in 0..<3 {
            let seen = try storage.tryReadStatement { db -> (ObjectIdentifier, Bool) in
                (ObjectIdentifier(db), db.isInTransaction)
            }
            guard let seen else { return XCTFail("no connection lent") }
            // The first read of a pass is a statement of its own; the later ones share a transaction.
            XCTAssertEqual(seen.1, index > 0, "read \(index)")
            if let first { XCTAssertEqual(first, seen.0, "the same connection for the whole pass") }
            first = seen.0
        }
        // The pass holds one connection; the other is still free for a nested caller.
        XCTAssertEqual(try storage.immediate.tryCheckOut().map { db in storage.immediate.checkIn(db); return 1 }, 1)
        IOPass.end()
        try assertBothConnectionsFree(storage)
    }

    func testAWriteCommittedDuringThePassIsReadByTheNextRead() throws {
        let (storage, _) = try makePassStorage()
        try openThePassTransaction(storage)
        // Acknowledged (writeAndWait returns after the commit): the same pass's next read must see it.
        try storage.writeAndWait { try $0.db.run("INSERT INTO t VALUES (2)") }
        XCTAssertEqual(try count(storage), 2)
        try storage.writeAndWait { try $0.db.run("INSERT INTO t VALUES (3)") }
        XCTAssertEqual(try count(storage), 3)
        IOPass.end()
        XCTAssertEqual(try count(storage), 3)
    }

    func testAnotherConnectionsCommitIsSeenByTheNextPass() throws {
        let (storage, dir) = try makePassStorage()
        try openThePassTransaction(storage)
        // A write by another connection (another process's, as the sqlite3 shell's would be): not counted by
        // this process's writer, so the pass keeps its snapshot, and the next pass reads the write.
        let other = try Database(options: StorageOptions(path: dir + "/test.sqlite3"))
        try other.execute("INSERT INTO t VALUES (2)")
        XCTAssertEqual(try count(storage), 1)
        IOPass.end()
        XCTAssertEqual(try count(storage), 2)
        other.close()
    }

    func testThePassTransactionDoesNotOutliveThePass() throws {
        let (storage, dir) = try makePassStorage()
        try openThePassTransaction(storage)
        let other = try Database(options: StorageOptions(path: dir + "/test.sqlite3"))
        try other.execute("INSERT INTO t VALUES (2)")
        // While the pass holds its snapshot, a checkpoint cannot copy the frames after it; after the pass it can
        // copy them all. (PASSIVE: returns at once; its answer is busy, frames in the WAL, frames copied.)
        let during = try other.queryOne("PRAGMA wal_checkpoint(PASSIVE)")
        IOPass.end()
        let after = try other.queryOne("PRAGMA wal_checkpoint(PASSIVE)")
        guard let during, let after, let logged = during[1].int64, let copied = during[2].int64 else {
            return XCTFail("no checkpoint answer")
        }
        XCTAssertLessThan(copied, logged, "the frames after the pass's snapshot stay in the WAL while it reads")
        XCTAssertEqual(after[2].int64, after[1].int64)
        other.close()
    }

    func testAFailingReadGivesTheConnectionBack() throws {
        let (storage, _) = try makePassStorage()
        try openThePassTransaction(storage)
        XCTAssertThrowsError(try storage.tryReadStatement { try $0.queryOne("SELECT nope FROM t") })
        // Not kept any more: both connections are free.
        try assertBothConnectionsFree(storage)
        XCTAssertEqual(try count(storage), 1)
    }

    func testOffThePassThreadNothingIsKept() throws {
        let (storage, _) = try makePassStorage()
        let inTransaction = Locked<Bool?>(nil)
        let done = DispatchSemaphore(value: 0)
        Thread {
            inTransaction.withLock { $0 = try? storage.tryReadStatement { $0.isInTransaction } ?? nil }
            done.signal()
        }.start()
        done.wait()
        XCTAssertEqual(inTransaction.withLock { $0 }, false)
    }
}
