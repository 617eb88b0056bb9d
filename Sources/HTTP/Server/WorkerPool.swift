import Foundation
import Synchronization

/// A fixed set of threads running handlers, so blocking storage calls never stall the event loops and no
/// thread is ever created per connection.
final class WorkerPool: @unchecked Sendable {
    typealias Job = @Sendable () -> Void

    // `condition` guards every var below; `queued` mirrors the queue length so idle workers can spin
    // briefly on it without taking the lock.
    private let condition = NSCondition()
    private var jobs: [Job?] = []
    private var head = 0
    private var sleeping = 0
    private var stopped = false
    private var running = 0
    private let queued = Atomic<Int>(0)
    private let threadCount: Int

    init(threads: Int) {
        threadCount = max(1, threads)
    }

    /// Starts the threads.
    func start(name: String) {
        for index in 0..<threadCount {
            let thread = Thread { [self] in self.run() }
            thread.name = "\(name)-\(index)"
            condition.lock()
            running += 1
            condition.unlock()
            thread.start()
        }
    }

    /// Queues a job; wakes a sleeping worker when none is about to pick it up.
    func submit(_ job: @escaping Job) {
        condition.lock()
        if stopped {
            condition.unlock()
            return
        }
        jobs.append(job)
        queued.add(1, ordering: .releasing)
        let wake = sleeping > 0
        condition.unlock()
        if wake { condition.signal() }
    }

    /// Lets the workers finish what is queued, then stop. Does not wait for them: a handler may be blocked.
    func stop() {
        condition.lock()
        stopped = true
        condition.unlock()
        condition.broadcast()
    }

    /// Blocks until every worker thread has returned or `timeoutNanos` passed; returns whether all did.
    func waitForExit(timeoutNanos: UInt64) -> Bool {
        let deadline = Date(timeIntervalSinceNow: Double(timeoutNanos) / 1e9)
        condition.lock()
        defer { condition.unlock() }
        while running > 0 {
            if !condition.wait(until: deadline) { return running == 0 }
        }
        return true
    }

    private func run() {
        while let job = next() {
            job()
        }
        condition.lock()
        running -= 1
        condition.unlock()
        condition.broadcast()
    }

    private func next() -> Job? {
        // A short spin before sleeping: under load the next job usually arrives within microseconds, and
        // a futex sleep/wake pair costs more than that.
        var spins = 0
        while queued.load(ordering: .acquiring) == 0 && spins < 200 {
            spins += 1
        }
        condition.lock()
        defer { condition.unlock() }
        while head >= jobs.count {
            if stopped { return nil }
            sleeping += 1
            condition.wait()
            sleeping -= 1
        }
        let job = jobs[head]
        jobs[head] = nil
        head += 1
        queued.subtract(1, ordering: .releasing)
        if head >= jobs.count {
            jobs.removeAll(keepingCapacity: true)
            head = 0
        } else if head > 4096 && head * 2 > jobs.count {
            jobs.removeFirst(head)
            head = 0
        }
        return job
    }
}
