import Dispatch
import Foundation
import Glibc
import XCTest
@testable import HTTP

final class WorkerPoolTests: XCTestCase {
    /// A batch wakes at most two workers. Jobs that announce they are about to block (`willBlock`) get the
    /// rest of the queue taken over by sleepers at once: here four jobs can only finish when all four run
    /// at the same time. Without the announcement the other two would wait for an event loop's stall
    /// check, and there is no event loop in this test.
    func testWillBlockHandsQueuedJobsToSleepers() {
        let pool = sleepingPool(threads: 4, runningLimit: 2)
        defer { pool.stop() }
        let gate = Gate()
        pool.submit(batch: (0..<4).map { _ in gate.job(announcingTo: pool) })
        gate.expectArrivals(4, "a queued job never started")
        gate.open(4)
        gate.expectFinished(4)
    }

    /// Called with nothing queued (or from a thread that is not a worker) it wakes nobody and jobs still run.
    func testWillBlockWithAnEmptyQueueIsHarmless() {
        let pool = WorkerPool(threads: 2, runningLimit: 2)
        pool.start(name: "test-worker")
        defer { pool.stop() }
        pool.willBlock()
        let ran = DispatchSemaphore(value: 0)
        pool.submit { ran.signal() }
        XCTAssertEqual(ran.wait(timeout: .now() + 10), .success)
    }

    /// A queue of handlers that block without announcing it is worked by `runningLimit` workers at most:
    /// submits wake no more, and without an event loop nothing nudges the stalled queue.
    func testSubmitsWakeNoMoreThanTheRunningLimit() {
        let pool = sleepingPool(threads: 8, runningLimit: 2)
        defer { pool.stop() }
        let gate = Gate()
        // A batch wakes two workers; once they run, the single submits that follow find two running and
        // wake nobody.
        pool.submit(batch: [gate.job(), gate.job()])
        gate.expectArrivals(2)
        for _ in 0..<3 { pool.submit(gate.job()) }
        // Room for a wrongly woken third worker to start.
        usleep(200_000)
        XCTAssertEqual(gate.started, 2)
        gate.open(5)
        gate.expectArrivals(3, "a queued job never started")
        gate.expectFinished(5)
    }

    /// A worker that announced a wait no longer counts as running: the next submit wakes a sleeper for its
    /// job although the running limit is one.
    func testAnnouncedWaitsDoNotCountAsRunning() {
        let pool = sleepingPool(threads: 3, runningLimit: 1)
        defer { pool.stop() }
        let gate = Gate()
        pool.submit(gate.job(announcingTo: pool))
        gate.expectArrivals(1)
        let ran = DispatchSemaphore(value: 0)
        pool.submit { ran.signal() }
        XCTAssertEqual(ran.wait(timeout: .now() + 10), .success, "the job waited behind an announced wait")
        gate.open(1)
        gate.expectFinished(1)
    }

    /// The safety net for waits nobody announced: once the queue has made no progress for the stall time,
    /// an event loop's nudge wakes one more worker even at the running limit.
    func testNudgeWakesAWorkerForAStalledQueue() {
        let pool = sleepingPool(threads: 3, runningLimit: 1)
        defer { pool.stop() }
        let gate = Gate()
        pool.submit(gate.job())
        gate.expectArrivals(1)
        let ran = DispatchSemaphore(value: 0)
        pool.submit { ran.signal() }
        XCTAssertEqual(ran.wait(timeout: .now() + 0.2), .timedOut, "the running limit was not kept")
        // The queued job has waited 200 ms with nothing taken: well past the 5 ms stall time.
        pool.nudge(now: Sys.monotonicNanos())
        XCTAssertEqual(ran.wait(timeout: .now() + 10), .success, "the nudge woke nobody")
        gate.open(1)
        gate.expectFinished(1)
    }

    /// A started pool whose `threads` workers have all gone to sleep.
    private func sleepingPool(threads: Int, runningLimit: Int) -> WorkerPool {
        let pool = WorkerPool(threads: threads, runningLimit: runningLimit)
        pool.start(name: "test-worker")
        waitUntilAllSleep(pool, threads)
        return pool
    }

    /// Freshly started workers are awake for a moment; the wake-up rules are about sleepers.
    private func waitUntilAllSleep(_ pool: WorkerPool, _ count: Int) {
        let deadline = DispatchTime.now() + 10
        while pool.sleepingWorkers < count && DispatchTime.now() < deadline { usleep(1000) }
        XCTAssertEqual(pool.sleepingWorkers, count)
    }
}

/// Jobs that hold their worker until the test opens the gate, counting how many started.
private final class Gate: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    private let arrived = DispatchSemaphore(value: 0)
    private let release = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)

    /// A job that counts itself, announces its wait to `pool` if given, and waits for `open`.
    func job(announcingTo pool: WorkerPool? = nil) -> WorkerPool.Job {
        { [self] in
            lock.lock()
            count += 1
            lock.unlock()
            arrived.signal()
            pool?.willBlock()
            _ = release.wait(timeout: .now() + 30)
            finished.signal()
        }
    }

    /// Jobs started so far.
    var started: Int {
        lock.lock()
        defer { lock.unlock() }
        return count
    }

    /// Lets `count` waiting (or future) jobs go on.
    func open(_ count: Int) {
        for _ in 0..<count { release.signal() }
    }

    func expectArrivals(_ count: Int, _ message: String = "", file: StaticString = #filePath, line: UInt = #line) {
        for _ in 0..<count {
            XCTAssertEqual(arrived.wait(timeout: .now() + 10), .success, message, file: file, line: line)
        }
    }

    func expectFinished(_ count: Int, file: StaticString = #filePath, line: UInt = #line) {
        for _ in 0..<count {
            XCTAssertEqual(finished.wait(timeout: .now() + 10), .success, file: file, line: line)
        }
    }
}
