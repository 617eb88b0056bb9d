import Core
import Foundation
import XCTest
@testable import Storage

final class ReaderPoolTests: XCTestCase {
    func testReadersRunConcurrentlyUpToPoolSize() throws {
        let (storage, _) = try makeStorage(self) { $0.readerCount = 3 }
        try storage.writeAndWait { try $0.db.execute("CREATE TABLE t (n); INSERT INTO t VALUES (1)") }
        let counts = Locked((current: 0, peak: 0))
        let errors = Collector<String>()
        DispatchQueue.concurrentPerform(iterations: 12) { _ in
            do {
                let n = try storage.read { db -> Int64? in
                    counts.withLock { $0.current += 1; $0.peak = max($0.peak, $0.current) }
                    defer { counts.withLock { $0.current -= 1 } }
                    Thread.sleep(forTimeInterval: 0.02)
                    return try db.queryOne("SELECT n FROM t")?[0].int64
                }
                if n != 1 { errors.append("read \(String(describing: n))") }
            } catch {
                errors.append("\(error)")
            }
        }
        XCTAssertEqual(errors.all, [])
        // Never more borrowers than connections.
        let peak = counts.withLock { $0.peak }
        XCTAssertLessThanOrEqual(peak, 3)
        XCTAssertGreaterThanOrEqual(peak, 1)
    }

    func testCheckoutBlocksUntilAConnectionIsReturned() throws {
        let (storage, _) = try makeStorage(self) { $0.readerCount = 1 }
        let holding = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let secondDone = DispatchSemaphore(value: 0)
        let order = Collector<String>()
        Thread.detachNewThread {
            _ = try? storage.read { _ in
                holding.signal()
                release.wait()
                order.append("first released")
            }
        }
        holding.wait()
        Thread.detachNewThread {
            _ = try? storage.read { _ in order.append("second borrowed") }
            secondDone.signal()
        }
        // The second reader cannot get the only connection while the first holds it.
        XCTAssertEqual(secondDone.wait(timeout: .now() + 0.1), .timedOut)
        release.signal()
        XCTAssertEqual(secondDone.wait(timeout: .now() + 5), .success)
        XCTAssertEqual(order.all, ["first released", "second borrowed"])
    }

    func testReadersSeeCommittedWritesWhileAWriteIsOpen() throws {
        let (storage, _) = try makeStorage(self)
        try storage.writeAndWait { try $0.db.execute("CREATE TABLE t (n); INSERT INTO t VALUES (1)") }
        let inJob = DispatchSemaphore(value: 0)
        let finishJob = DispatchSemaphore(value: 0)
        let written = DispatchSemaphore(value: 0)
        storage.write({ ctx in
            try ctx.db.run("INSERT INTO t VALUES (2)")
            inJob.signal()
            finishJob.wait()
        }, completion: { _ in written.signal() })
        inJob.wait()
        // WAL: the reader is not blocked by the open write transaction and sees the last commit only.
        XCTAssertEqual(try storage.read { try $0.queryOne("SELECT count(*) FROM t")?[0] }, .integer(1))
        finishJob.signal()
        written.wait()
        XCTAssertEqual(try storage.read { try $0.queryOne("SELECT count(*) FROM t")?[0] }, .integer(2))
    }

    func testReadAfterCloseThrowsClosed() throws {
        let (storage, _) = try makeStorage(self)
        storage.close()
        assertStorageError(try storage.read { _ in 1 }) { $0 == .closed }
    }

    /// A connection borrowed while statistics are reloaded is replaced when it comes back; without a reload
    /// the same connection is handed out again (check-in's fast path for generation 0 keeps it).
    func testAConnectionBorrowedDuringAStatisticsReloadIsReplacedOnCheckIn() throws {
        let (storage, _) = try makeStorage(self) { $0.readerCount = 1 }
        let pool = storage.immediate
        func identity() throws -> ObjectIdentifier? { try pool.withConnectionIfFree { ObjectIdentifier($0) } }
        let first = try XCTUnwrap(try identity())
        XCTAssertEqual(try identity(), first)
        let borrowed = try pool.withConnectionIfFree { db -> ObjectIdentifier in
            pool.reloadStatistics()
            return ObjectIdentifier(db)
        }
        XCTAssertEqual(borrowed, first)
        let renewed = try XCTUnwrap(try identity())
        XCTAssertNotEqual(renewed, first)
        // Current from then on: kept.
        XCTAssertEqual(try identity(), renewed)
    }
}
