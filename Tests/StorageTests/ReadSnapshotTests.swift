import Core
import Foundation
import XCTest
@testable import Storage

/// `Storage.read` runs its body in one read transaction: every statement sees the same snapshot.
final class ReadSnapshotTests: XCTestCase {
    /// Counts the rows of `t` before and after a commit made between two statements of one `read` (through
    /// `readBody`), and whether the body ran inside a transaction.
    private func countsAroundACommit(_ storage: Storage,
                                     _ readBody: ((Database) throws -> (Int64?, Int64?, Bool)) throws -> (Int64?, Int64?, Bool))
        throws -> (first: Int64?, second: Int64?, insideTransaction: Bool) {
        try storage.writeAndWait { try $0.db.execute("CREATE TABLE t (n); INSERT INTO t VALUES (1)") }
        return try readBody { db in
            let first = try db.queryOne("SELECT count(*) FROM t")?[0].int64
            // Committed (durably) while this read is open: WAL lets the writer go ahead.
            try storage.writeAndWait { try $0.db.run("INSERT INTO t VALUES (2)") }
            let second = try db.queryOne("SELECT count(*) FROM t")?[0].int64
            return (first, second, db.isInTransaction)
        }
    }

    func testAReadSeesOneSnapshotAcrossStatements() throws {
        let (storage, _) = try makeStorage(self)
        let (first, second, insideTransaction) = try countsAroundACommit(storage) { try storage.read($0) }
        // The read's snapshot was fixed by its first statement.
        XCTAssertEqual(first, 1)
        XCTAssertEqual(second, 1)
        XCTAssertTrue(insideTransaction)
        // The next read starts a new snapshot.
        XCTAssertEqual(try storage.read { try $0.queryOne("SELECT count(*) FROM t")?[0].int64 }, 2)
    }

    /// `readStatement` opens no transaction: each statement reads the newest commit.
    func testReadStatementSeesEachCommitAsItStarts() throws {
        let (storage, _) = try makeStorage(self)
        let (first, second, insideTransaction) = try countsAroundACommit(storage) { try storage.readStatement($0) }
        XCTAssertEqual(first, 1)
        XCTAssertEqual(second, 2)
        XCTAssertFalse(insideTransaction)
    }

    func testATransactionEndsWhenItsBodyThrows() throws {
        let (storage, _) = try makeStorage(self) { $0.readerCount = 1 }
        try storage.writeAndWait { try $0.db.execute("CREATE TABLE t (n)") }
        struct Failure: Error {}
        XCTAssertThrowsError(try storage.read { db -> Int in
            _ = try db.queryOne("SELECT count(*) FROM t")
            throw Failure()
        }) { XCTAssertTrue($0 is Failure) }
        // The only connection came back without an open transaction and reads new commits.
        try storage.writeAndWait { try $0.db.run("INSERT INTO t VALUES (1)") }
        let (count, open) = try storage.read { db in (try db.queryOne("SELECT count(*) FROM t")?[0].int64, db.isInTransaction) }
        XCTAssertEqual(count, 1)
        XCTAssertTrue(open)
        XCTAssertFalse(try storage.read { db in db }.isInTransaction)
    }

    func testDatabaseTransactionCommitsAndRollsBack() throws {
        let dir = try makeTemporaryDirectory(self)
        let db = try Database(path: dir + "/t.sqlite3")
        try db.execute("CREATE TABLE t (n)")
        try db.transaction { try db.run("INSERT INTO t VALUES (1)") }
        XCTAssertFalse(db.isInTransaction)
        struct Failure: Error {}
        XCTAssertThrowsError(try db.transaction { try db.run("INSERT INTO t VALUES (2)"); throw Failure() })
        XCTAssertFalse(db.isInTransaction)
        XCTAssertEqual(try db.queryOne("SELECT count(*) FROM t")?[0].int64, 1)
    }
}

/// Storage calls the installed blocking hook right before a thread waits for a commit, and only then.
final class BlockingHookTests: XCTestCase {
    func testWriteAndWaitCallsTheHookBeforeWaiting() throws {
        let (storage, _) = try makeStorage(self)
        let calls = Locked(0)
        try storage.writeAndWait { try $0.db.execute("CREATE TABLE t (n)") }
        storage.setBlockingHook { calls.withLock { $0 += 1 } }
        for n in 1...3 { try storage.writeAndWait { try $0.db.run("INSERT INTO t VALUES (?)", [.integer(Int64(n))]) } }
        XCTAssertEqual(calls.withLock { $0 }, 3)
        // Reads that find a free connection do not block, so they do not call it.
        _ = try storage.read { try $0.queryOne("SELECT 1") }
        XCTAssertEqual(calls.withLock { $0 }, 3)
    }

    /// Read connections are held by threads running SQLite on the CPU, so a thread waiting for one does
    /// not ask for another worker: that worker would only queue for a connection too.
    func testAReadWaitingForAConnectionDoesNotCallTheHook() throws {
        let (storage, _) = try makeStorage(self) { $0.readerCount = 1 }
        let calls = Locked(0)
        storage.setBlockingHook { calls.withLock { $0 += 1 } }
        let started = DispatchSemaphore(value: 0), done = DispatchSemaphore(value: 0)
        try storage.read { _ in
            // The only connection is borrowed here, so the other read has to wait for it.
            DispatchQueue.global().async {
                started.signal()
                _ = try? storage.read { try $0.queryOne("SELECT 1") }
                done.signal()
            }
            XCTAssertEqual(started.wait(timeout: .now() + 10), .success)
            XCTAssertEqual(done.wait(timeout: .now() + 0.2), .timedOut, "the second read did not wait")
        }
        XCTAssertEqual(done.wait(timeout: .now() + 10), .success)
        XCTAssertEqual(calls.withLock { $0 }, 0)
    }
}
