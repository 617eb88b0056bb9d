import Foundation
import XCTest
@testable import Storage

/// `Storage.interruptAll()` cancels statements running on the read connections and on the writer, so a
/// shutdown can end work that would otherwise outlast its grace.
final class InterruptTests: XCTestCase {
    /// Counts to a billion: minutes of work in one step, with no row returned in between.
    static let endless = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c LIMIT 1000000000) "
        + "SELECT count(*) FROM c"

    /// Runs `body` on a thread of its own; the result arrives in the returned collector.
    private func inBackground(_ body: @escaping @Sendable () throws -> Void) -> (Collector<String>, DispatchSemaphore) {
        let outcome = Collector<String>()
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            do {
                try body()
                outcome.append("finished")
            } catch let error as StorageError {
                outcome.append(error == .interrupted ? "interrupted" : "\(error)")
            } catch {
                outcome.append("\(error)")
            }
            done.signal()
        }
        return (outcome, done)
    }

    /// Interrupts until `done` is signalled (an interrupt that arrives before the statement started is lost).
    private func interrupt(_ storage: Storage, until done: DispatchSemaphore) -> Bool {
        for _ in 0..<1000 {
            storage.interruptAll()
            if done.wait(timeout: .now() + .milliseconds(10)) == .success { return true }
        }
        return false
    }

    func testInterruptEndsARunningRead() throws {
        let (storage, _) = try makeStorage(self)
        let (outcome, done) = inBackground { _ = try storage.read { try $0.queryOne(Self.endless) } }
        usleep(100_000)
        XCTAssertTrue(interrupt(storage, until: done))
        XCTAssertEqual(outcome.all, ["interrupted"])
        // The connection went back to the pool and serves the next read normally.
        XCTAssertEqual(try storage.read { try $0.queryOne("SELECT 42")?[0] }, .integer(42))
    }

    func testInterruptEndsARunningWriteJobAndTheWriterCarriesOn() throws {
        let (storage, _) = try makeStorage(self)
        try storage.writeAndWait { try $0.db.execute("CREATE TABLE t (n)") }
        try storage.writeAndWait { try $0.db.run("INSERT INTO t VALUES (1)") }
        let (outcome, done) = inBackground {
            try storage.writeAndWait { ctx in
                try ctx.db.run("INSERT INTO t VALUES (2)")
                _ = try ctx.db.queryOne(Self.endless)
            }
        }
        usleep(100_000)
        XCTAssertTrue(interrupt(storage, until: done))
        XCTAssertEqual(outcome.all, ["interrupted"])
        // The interrupted job left nothing; what was acknowledged before is there; new writes work.
        try storage.writeAndWait { try $0.db.run("INSERT INTO t VALUES (3)") }
        let values = try storage.read { try $0.query("SELECT n FROM t ORDER BY n").map { $0[0] } }
        XCTAssertEqual(values, [.integer(1), .integer(3)])
    }

    func testInterruptLetsCloseFinishWhileAReadWasRunning() throws {
        let (storage, _) = try makeStorage(self)
        let (_, readDone) = inBackground { _ = try storage.read { try $0.queryOne(Self.endless) } }
        usleep(100_000)
        let closed = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            storage.close()
            closed.signal()
        }
        XCTAssertTrue(interrupt(storage, until: closed))
        XCTAssertEqual(readDone.wait(timeout: .now() + 10), .success)
    }

    func testInterruptWithNothingRunningChangesNothing() throws {
        let (storage, _) = try makeStorage(self)
        storage.interruptAll()
        try storage.writeAndWait { try $0.db.execute("CREATE TABLE t (n); INSERT INTO t VALUES (7)") }
        XCTAssertEqual(try storage.read { try $0.queryOne("SELECT n FROM t")?[0] }, .integer(7))
        XCTAssertEqual(try storage.readStatement { try $0.queryOne("SELECT n FROM t")?[0] }, .integer(7))
    }
}
