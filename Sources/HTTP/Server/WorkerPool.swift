import Foundation
import Synchronization

/// A fixed set of threads running handlers, so blocking storage calls never stall the event loops and no
/// thread is ever created per connection.
final class WorkerPool: @unchecked Sendable {
    typealias Job = @Sendable () -> Void

    // `lock` guards every var below. Wake-ups are rationed because a futex wake per request costs more
    // than a small handler: a submit wakes a sleeper only when no worker is idle-awake and no wake-up is
    // already on its way. A queued job that has waited longer than `stallNanos` (its workers are busy,
    // e.g. blocked on storage) gets another worker woken, by the worker taking a job or by an event loop's
    // `nudge`; so blocking handlers still fan out while quick ones are served by one or two threads.
    // A worker that is about to block announces it (`willBlock`, called through the server's blocking
    // hook by storage waits), and a sleeper takes its place at once; the stall rule is then only the
    // safety net for waits nobody announced, so it can be long enough that a queue of quick CPU-bound
    // handlers (a few tens of microseconds each) is not spread over every thread: more threads than
    // cores only add context switches and contention.
    //
    // Sleepers wait on their own semaphore and are woken last-in, first-out: the worker that went to sleep
    // most recently is the one whose stack and data are still in the CPU caches. A shared condition
    // variable wakes the longest sleeper instead, which spread quick requests over all 64 threads.
    private let lock = NSLock()
    private var jobs: [Job?] = []
    private var enqueued: [UInt64] = []
    private var head = 0
    /// Semaphores of sleeping workers, the most recent sleeper last.
    private var sleepers: [DispatchSemaphore] = []
    private var pendingWakes = 0
    private var stopped = false
    /// Jobs queued, readable without the lock for spinning.
    private let queued = Atomic<Int>(0)
    /// Workers between jobs that have not gone to sleep (they will pick up new work without a wake-up).
    private let idleAwake = Atomic<Int>(0)
    private let threadCount: Int
    /// How many times an idle worker checks for work (one atomic load each) before sleeping.
    private let spinLimit = 256
    /// 5 ms: only waits nobody announced through `willBlock` rely on it (a file fsync, a long bcrypt). A
    /// shorter stall (0.2 ms) also fired for a queue of quick GETs from 64 clients, spreading them over
    /// every thread: 10 % fewer GETs per second.
    private let stallNanos: UInt64 = 5_000_000

    init(threads: Int) {
        threadCount = max(1, threads)
    }

    /// Starts the threads.
    func start(name: String) {
        for index in 0..<threadCount {
            let thread = Thread { [self] in self.run() }
            thread.name = "\(name)-\(index)"
            thread.start()
        }
    }

    /// Queues a job.
    func submit(_ job: @escaping Job) {
        lock.lock()
        if stopped {
            lock.unlock()
            return
        }
        jobs.append(job)
        enqueued.append(Sys.monotonicNanos())
        queued.add(1, ordering: .releasing)
        var woken: DispatchSemaphore?
        if pendingWakes == 0 && idleAwake.load(ordering: .acquiring) == 0 {
            woken = popSleeper()
        }
        lock.unlock()
        woken?.signal()
    }

    /// Queues several jobs under one lock (an event loop hands over everything one pass produced) and wakes
    /// at most two workers: more cannot run quick handlers faster on a small machine, and blocked ones are
    /// covered by the stall rule.
    func submit(batch: [Job]) {
        guard !batch.isEmpty else { return }
        let now = Sys.monotonicNanos()
        lock.lock()
        if stopped {
            lock.unlock()
            return
        }
        jobs.append(contentsOf: batch.map { Optional($0) })
        enqueued.append(contentsOf: repeatElement(now, count: batch.count))
        queued.add(batch.count, ordering: .releasing)
        var woken: [DispatchSemaphore] = []
        if pendingWakes == 0 && idleAwake.load(ordering: .acquiring) == 0 {
            for _ in 0..<(batch.count > 1 ? 2 : 1) {
                guard let sleeper = popSleeper() else { break }
                woken.append(sleeper)
            }
        }
        lock.unlock()
        for sleeper in woken { sleeper.signal() }
    }

    /// Called on a thread that is about to block on something other than the CPU: when jobs are queued
    /// that no awake worker or wake-up on its way will take, one more sleeper is woken now. Harmless from
    /// a thread that is not a worker (it only wakes a worker for queued jobs).
    func willBlock() {
        guard queued.load(ordering: .acquiring) > 0 else { return }
        lock.lock()
        let waiting = jobs.count - head
        let woken = waiting > pendingWakes && idleAwake.load(ordering: .acquiring) == 0 ? popSleeper() : nil
        lock.unlock()
        woken?.signal()
    }

    /// Workers asleep right now (for tests).
    var sleepingWorkers: Int {
        lock.lock()
        defer { lock.unlock() }
        return sleepers.count
    }

    /// Whether jobs are waiting (event loops then poll with a short timeout so `nudge` runs soon).
    var hasBacklog: Bool { queued.load(ordering: .relaxed) > 0 }

    /// Wakes one more worker when the oldest queued job has waited too long. Called by the event loops.
    func nudge(now: UInt64) {
        guard hasBacklog else { return }
        lock.lock()
        let woken = isStalled(now: now) ? popSleeper() : nil
        lock.unlock()
        woken?.signal()
    }

    /// The most recent sleeper, counted as a wake-up on its way. Caller holds the lock.
    private func popSleeper() -> DispatchSemaphore? {
        guard let sleeper = sleepers.popLast() else { return nil }
        pendingWakes += 1
        return sleeper
    }

    /// Caller holds the lock.
    private func isStalled(now: UInt64) -> Bool {
        guard head < jobs.count, !sleepers.isEmpty, pendingWakes == 0 else { return false }
        return now &- enqueued[head] > stallNanos
    }

    /// Lets the workers finish what is queued, then stop. Does not wait for them: a handler may be blocked.
    func stop() {
        lock.lock()
        stopped = true
        let all = sleepers
        sleepers.removeAll()
        lock.unlock()
        for sleeper in all { sleeper.signal() }
    }

    private func run() {
        let wake = DispatchSemaphore(value: 0)
        while let job = next(wake) {
            job()
        }
    }

    private func next(_ wake: DispatchSemaphore) -> Job? {
        idleAwake.add(1, ordering: .releasing)
        // A brief busy spin (well under a microsecond) catches the next job of a burst without a system call.
        // Sixteen times longer measured up to 10 % more `/health` requests per second, but 64 workers
        // spinning that long after each job took the CPU from other work: the p99 of parked requests woken
        // by a commit rose from 8-13 ms to 11-19 ms.
        var spins = 0
        while queued.load(ordering: .acquiring) == 0 && spins < spinLimit {
            spins += 1
        }
        lock.lock()
        while head >= jobs.count {
            if stopped {
                idleAwake.subtract(1, ordering: .releasing)
                lock.unlock()
                return nil
            }
            idleAwake.subtract(1, ordering: .releasing)
            sleepers.append(wake)
            lock.unlock()
            wake.wait()
            lock.lock()
            // A wake from `stop` was not counted; the others were.
            if pendingWakes > 0 { pendingWakes -= 1 }
            idleAwake.add(1, ordering: .releasing)
        }
        let job = jobs[head]
        jobs[head] = nil
        head += 1
        queued.subtract(1, ordering: .releasing)
        if head >= jobs.count {
            jobs.removeAll(keepingCapacity: true)
            enqueued.removeAll(keepingCapacity: true)
            head = 0
        } else if head > 4096 && head * 2 > jobs.count {
            jobs.removeFirst(head)
            enqueued.removeFirst(head)
            head = 0
        }
        idleAwake.subtract(1, ordering: .releasing)
        let chained = idleAwake.load(ordering: .acquiring) == 0 && isStalled(now: Sys.monotonicNanos()) ? popSleeper() : nil
        lock.unlock()
        chained?.signal()
        return job
    }
}
