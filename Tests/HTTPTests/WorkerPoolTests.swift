import Dispatch
import Glibc
import XCTest
@testable import HTTP

final class WorkerPoolTests: XCTestCase {
    /// A batch wakes at most two workers. Jobs that announce they are about to block (`willBlock`) get the
    /// rest of the queue taken over by sleepers at once: here four jobs can only finish when all four run
    /// at the same time. Without the announcement the other two would wait for an event loop's stall
    /// check, and there is no event loop in this test.
    func testWillBlockHandsQueuedJobsToSleepers() {
        let pool = WorkerPool(threads: 4)
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
        let pool = WorkerPool(threads: 2)
        pool.start(name: "test-worker")
        defer { pool.stop() }
        pool.willBlock()
        let ran = DispatchSemaphore(value: 0)
        pool.submit { ran.signal() }
        XCTAssertEqual(ran.wait(timeout: .now() + 10), .success)
    }

    /// Freshly started workers are awake for a moment; the wake-up rules are about sleepers.
    private func waitUntilAllSleep(_ pool: WorkerPool, _ count: Int) {
        let deadline = DispatchTime.now() + 10
        while pool.sleepingWorkers < count && DispatchTime.now() < deadline { usleep(1000) }
        XCTAssertEqual(pool.sleepingWorkers, count)
    }
}
