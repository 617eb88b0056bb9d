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
        let pool = WorkerPool(threads: 4, runningLimit: 2)
        pool.start(name: "test-worker")
        defer { pool.stop() }
        waitUntilAllSleep(pool, 4)
        let arrived = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let finished = DispatchSemaphore(value: 0)
        let jobs: [WorkerPool.Job] = (0..<4).map { _ in
            {
                arrived.signal()
                pool.willBlock()
                _ = release.wait(timeout: .now() + 30)
                finished.signal()
            }
        }
        pool.submit(batch: jobs)
        for _ in 0..<4 {
            XCTAssertEqual(arrived.wait(timeout: .now() + 10), .success, "a queued job never started")
        }
        for _ in 0..<4 { release.signal() }
        for _ in 0..<4 { XCTAssertEqual(finished.wait(timeout: .now() + 10), .success) }
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
        let pool = WorkerPool(threads: 8, runningLimit: 2)
        pool.start(name: "test-worker")
        defer { pool.stop() }
        waitUntilAllSleep(pool, 8)
        let started = Counter()
        let arrived = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let job: WorkerPool.Job = {
            started.increment()
            arrived.signal()
            _ = release.wait(timeout: .now() + 30)
        }
        // A batch wakes two workers; once they run, the single submits that follow find two running and
        // wake nobody.
        pool.submit(batch: [job, job])
        for _ in 0..<2 { XCTAssertEqual(arrived.wait(timeout: .now() + 10), .success) }
        for _ in 0..<3 { pool.submit(job) }
        // Room for a wrongly woken third worker to start.
        usleep(200_000)
        XCTAssertEqual(started.value, 2)
        for _ in 0..<5 { release.signal() }
        for _ in 0..<3 { XCTAssertEqual(arrived.wait(timeout: .now() + 10), .success, "a queued job never started") }
        XCTAssertEqual(started.value, 5)
    }

    /// A worker that announced a wait no longer counts as running: the next submit wakes a sleeper for its
    /// job although the running limit is one.
    func testAnnouncedWaitsDoNotCountAsRunning() {
        let pool = WorkerPool(threads: 3, runningLimit: 1)
        pool.start(name: "test-worker")
        defer { pool.stop() }
        waitUntilAllSleep(pool, 3)
        let blockedArrived = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let finished = DispatchSemaphore(value: 0)
        pool.submit {
            pool.willBlock()
            blockedArrived.signal()
            _ = release.wait(timeout: .now() + 30)
            finished.signal()
        }
        XCTAssertEqual(blockedArrived.wait(timeout: .now() + 10), .success)
        let ran = DispatchSemaphore(value: 0)
        pool.submit { ran.signal() }
        XCTAssertEqual(ran.wait(timeout: .now() + 10), .success, "the job waited behind an announced wait")
        release.signal()
        XCTAssertEqual(finished.wait(timeout: .now() + 10), .success)
    }

    /// The safety net for waits nobody announced: once the queue has made no progress for the stall time,
    /// an event loop's nudge wakes one more worker even at the running limit.
    func testNudgeWakesAWorkerForAStalledQueue() {
        let pool = WorkerPool(threads: 3, runningLimit: 1)
        pool.start(name: "test-worker")
        defer { pool.stop() }
        waitUntilAllSleep(pool, 3)
        let arrived = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        pool.submit {
            arrived.signal()
            _ = release.wait(timeout: .now() + 30)
        }
        XCTAssertEqual(arrived.wait(timeout: .now() + 10), .success)
        let ran = DispatchSemaphore(value: 0)
        pool.submit { ran.signal() }
        XCTAssertEqual(ran.wait(timeout: .now() + 0.2), .timedOut, "the running limit was not kept")
        // The queued job has waited 200 ms with nothing taken: well past the 5 ms stall time.
        pool.nudge(now: Sys.monotonicNanos())
        XCTAssertEqual(ran.wait(timeout: .now() + 10), .success, "the nudge woke nobody")
        release.signal()
    }

    /// Freshly started workers are awake for a moment; the wake-up rules are about sleepers.
    private func waitUntilAllSleep(_ pool: WorkerPool, _ count: Int) {
        let deadline = DispatchTime.now() + 10
        while pool.sleepingWorkers < count && DispatchTime.now() < deadline { usleep(1000) }
        XCTAssertEqual(pool.sleepingWorkers, count)
    }
}

/// A count shared by worker threads in these tests.
private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    func increment() {
        lock.lock()
        count += 1
        lock.unlock()
    }

    var value: Int {
        lock.lock()
        defer { lock.unlock() }
        return count
    }
}
