import Foundation
import XCTest
@testable import Storage

final class GroupCommitTests: XCTestCase {
    private struct JobFailure: Error, Equatable { let n: Int }

    func testConcurrentJobsAreAllDurableAndBatched() throws {
        let observer = RecordingObserver()
        let (storage, dir) = try makeStorage(self, observer: observer)
        try storage.writeAndWait { try $0.db.execute("CREATE TABLE t (n INTEGER PRIMARY KEY)") }
        // Hold the writer in one slow job so the 64 others pile up in the queue behind it.
        let blockerStarted = DispatchSemaphore(value: 0)
        let blockerDone = DispatchSemaphore(value: 0)
        storage.write({ _ in blockerStarted.signal(); Thread.sleep(forTimeInterval: 0.2) },
                      completion: { _ in blockerDone.signal() })
        blockerStarted.wait()
        XCTAssertEqual(storage.pendingWrites, 0)
        let results = Collector<Int>()
        let failures = Collector<String>()
        DispatchQueue.concurrentPerform(iterations: 64) { i in
            do {
                let n = try storage.writeAndWait { ctx -> Int in
                    try ctx.db.run("INSERT INTO t (n) VALUES (?)", [.integer(Int64(i))])
                    return i
                }
                results.append(n)
            } catch {
                failures.append("\(error)")
            }
        }
        blockerDone.wait()
        XCTAssertEqual(failures.all, [])
        XCTAssertEqual(results.all.sorted(), Array(0..<64))
        XCTAssertTrue(observer.batches.contains { $0 > 1 }, "batches: \(observer.batches)")
        XCTAssertEqual(observer.batches.reduce(0, +), 1 + 1 + 64)
        XCTAssertEqual(storage.pendingWrites, 0)
        // Jobs were seen waiting behind the blocker.
        XCTAssertGreaterThan(observer.depths.max() ?? 0, 1)

        // Durable: a fresh connection after close sees every row.
        storage.close()
        let db = try Database(path: dir + "/test.sqlite3")
        XCTAssertEqual(try db.queryOne("SELECT count(*) FROM t")?[0], .integer(64))
    }

    func testOneFailingJobRollsBackOnlyItself() throws {
        let observer = RecordingObserver()
        let (storage, _) = try makeStorage(self, observer: observer)
        try storage.writeAndWait { try $0.db.execute("CREATE TABLE t (n INTEGER PRIMARY KEY)") }
        let blockerStarted = DispatchSemaphore(value: 0)
        storage.write({ _ in blockerStarted.signal(); Thread.sleep(forTimeInterval: 0.1) }, completion: { _ in })
        blockerStarted.wait()
        let outcomes = Collector<(Int, Bool)>()
        let group = DispatchGroup()
        for i in 0..<20 {
            group.enter()
            storage.write({ ctx -> Int in
                try ctx.db.run("INSERT INTO t (n) VALUES (?)", [.integer(Int64(i))])
                if i == 7 { throw JobFailure(n: i) }
                return i
            }, completion: { result in
                if case .failure(let error) = result { XCTAssertEqual(error as? JobFailure, JobFailure(n: 7)) }
                outcomes.append((i, (try? result.get()) != nil))
                group.leave()
            })
        }
        XCTAssertEqual(group.wait(timeout: .now() + 10), .success)
        let failed = outcomes.all.filter { !$0.1 }.map(\.0)
        XCTAssertEqual(failed, [7])
        let rows = try storage.read { try $0.query("SELECT n FROM t ORDER BY n").compactMap { $0[0].int64 } }
        XCTAssertEqual(rows, (0..<20).filter { $0 != 7 }.map(Int64.init))
        // The failing job shared a batch with others and did not abort it.
        XCTAssertTrue(observer.batches.contains { $0 > 1 }, "batches: \(observer.batches)")
    }

    func testConstraintErrorInOneJobLeavesOthersCommitted() throws {
        let (storage, _) = try makeStorage(self)
        try storage.writeAndWait { try $0.db.execute("CREATE TABLE t (k TEXT PRIMARY KEY)") }
        XCTAssertNoThrow(try storage.writeAndWait { try $0.db.run("INSERT INTO t VALUES ('a')") })
        assertStorageError(try storage.writeAndWait { try $0.db.run("INSERT INTO t VALUES ('a')") }) {
            if case .constraint = $0 { return true }
            return false
        }
        XCTAssertNoThrow(try storage.writeAndWait { try $0.db.run("INSERT INTO t VALUES ('b')") })
        XCTAssertEqual(try storage.read { try $0.queryOne("SELECT count(*) FROM t")?[0] }, .integer(2))
    }

    func testJobThatEndsTheTransactionFailsItsBatch() throws {
        let (storage, _) = try makeStorage(self)
        try storage.writeAndWait { try $0.db.execute("CREATE TABLE t (n)") }
        assertStorageError(try storage.writeAndWait { ctx in
            try ctx.db.run("INSERT INTO t VALUES (1)")
            try ctx.db.execute("RELEASE quartet_job; ROLLBACK")
        }) {
            if case .misuse = $0 { return true }
            return false
        }
        // The writer recovers for the next batch.
        XCTAssertNoThrow(try storage.writeAndWait { try $0.db.run("INSERT INTO t VALUES (2)") })
        XCTAssertEqual(try storage.read { try $0.query("SELECT n FROM t").map { $0[0] } }, [.integer(2)])
    }

    func testCloseDrainsQueuedJobs() throws {
        let (storage, _) = try makeStorage(self)
        try storage.writeAndWait { try $0.db.execute("CREATE TABLE t (n)") }
        let completed = Collector<Bool>()
        for i in 0..<50 {
            storage.write({ try $0.db.run("INSERT INTO t VALUES (?)", [.integer(Int64(i))]) },
                          completion: { completed.append((try? $0.get()) != nil) })
        }
        storage.close()
        XCTAssertEqual(completed.all.count, 50)
        XCTAssertTrue(completed.all.allSatisfy { $0 })
        let late = Collector<Bool>()
        storage.write({ _ in 1 }, completion: { late.append((try? $0.get()) == nil) })
        XCTAssertEqual(late.all, [true])
    }

    func testBusyBeginIsRetriedAndCounted() throws {
        let observer = RecordingObserver()
        let (storage, dir) = try makeStorage(self, observer: observer) { $0.busyTimeoutMilliseconds = 0 }
        try storage.writeAndWait { try $0.db.execute("CREATE TABLE t (n)") }
        // Another connection (as another process would) holds the write lock for a moment.
        let other = try Database(path: dir + "/test.sqlite3")
        try other.execute("BEGIN IMMEDIATE")
        let done = DispatchSemaphore(value: 0)
        storage.write({ try $0.db.run("INSERT INTO t VALUES (1)") }, completion: { _ in done.signal() })
        Thread.sleep(forTimeInterval: 0.05)
        try other.execute("COMMIT")
        XCTAssertEqual(done.wait(timeout: .now() + 10), .success)
        XCTAssertGreaterThan(observer.busyRetries, 0)
        XCTAssertEqual(try storage.read { try $0.queryOne("SELECT count(*) FROM t")?[0] }, .integer(1))
    }
}
