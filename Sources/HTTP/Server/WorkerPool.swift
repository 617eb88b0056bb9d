import Foundation
import Glibc
import Synchronization

/// A fixed set of threads running handlers, so blocking storage calls never stall the event loops and no
/// thread is ever created per connection.
final class WorkerPool: @unchecked Sendable {
    typealias Job = @Sendable () -> Void

    // `lock` guards every var below. Wake-ups are rationed because a futex wake per request costs more
    // than a small handler, and because more running threads than cores only add context switches and
    // contention:
    // - A submit wakes a sleeper only when no worker is idle-awake, no wake-up is already on its way, and
    //   fewer than `runningLimit` workers are awake and not blocked (twice the cores by default).
    // - A worker that is about to block announces it (`willBlock`, called through the server's blocking
    //   hook by storage waits): it no longer counts as running until its job ends, and a sleeper takes
    //   over the queue at once. So handlers that wait for a commit still fan out over many threads.
    // - When the queue has made no progress for `stallNanos` (its oldest job has waited that long and no
    //   job was taken meanwhile: every awake worker is blocked in a wait nobody announced, or busy with a
    //   long handler), another worker is woken, by the worker taking a job or by an event loop's `nudge`.
    // Before the running limit, every submit that found all awake workers busy woke one more, and the
    // stall rule fired on the oldest job's age alone. Under a saturated queue of BQL queries (a few hundred
    // microseconds each, 64 clients on two cores) that put all 64 workers in play, most of them waiting for
    // one of the 8 reader connections or for the caches' locks: about 11 futex calls per query and 45 %
    // more CPU per query than with four running workers. With four, a Parse GET by id was served at the
    // same rate and an indexed Parse query about 5 % slower (within the noise of those runs).
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
    /// Workers of this pool that announced a wait (`willBlock`) during the job they run now.
    private var blocked = 0
    /// When a worker last took a job (monotonic ns): the queue's progress, see `isStalled`.
    private var lastTaken: UInt64 = 0
    private var stopped = false
    /// Jobs queued, readable without the lock for spinning.
    private let queued = Atomic<Int>(0)
    /// Workers between jobs that have not gone to sleep (they will pick up new work without a wake-up).
    private let idleAwake = Atomic<Int>(0)
    private let threadCount: Int
    /// Most awake, unblocked workers a submit wakes sleepers for (`ServerConfiguration.runningWorkers`).
    private let runningLimit: Int
    /// How many times an idle worker checks for work (one atomic load each) before sleeping.
    private let spinLimit = 256
    /// 5 ms: only waits nobody announced through `willBlock` rely on it (a file fsync, a long bcrypt). A
    /// shorter stall (0.2 ms) also fired for a queue of quick GETs from 64 clients, spreading them over
    /// every thread: 10 % fewer GETs per second.
    private let stallNanos: UInt64 = 5_000_000

    init(threads: Int, runningLimit: Int) {
        threadCount = max(1, threads)
        self.runningLimit = max(1, runningLimit)
    }

    /// The calling worker thread's own state (a POSIX thread-specific slot), so `willBlock` can tell its own
    /// workers from other threads (the storage hook calls every server's pool).
    private final class WorkerState {
        unowned let pool: WorkerPool
        /// Whether this worker announced a wait during its current job (counted in `blocked`). Only the
        /// worker's own thread reads and writes it (`willBlock` runs on the thread that will block).
        var blocked = false
        init(pool: WorkerPool) { self.pool = pool }
    }

    private static let stateKey: pthread_key_t = {
        var key = pthread_key_t()
        // No destructor: `run` releases the state before its thread ends.
        pthread_key_create(&key, nil)
        return key
    }()

    /// The calling thread's state if it is one of this pool's workers.
    private var currentWorker: WorkerState? {
        guard let pointer = pthread_getspecific(Self.stateKey) else { return nil }
        let state = Unmanaged<WorkerState>.fromOpaque(pointer).takeUnretainedValue()
        return state.pool === self ? state : nil
    }

    /// Whether a submit may wake a sleeper: nobody awake is idle, no wake-up is on its way, and fewer than
    /// `runningLimit` workers are awake and unblocked. Caller holds the lock.
    private var mayWakeForSubmit: Bool {
        pendingWakes == 0 && idleAwake.load(ordering: .acquiring) == 0
            && threadCount - sleepers.count - blocked < runningLimit
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
        if mayWakeForSubmit {
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
        if mayWakeForSubmit {
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
        // One of this pool's workers, not yet counted as blocked in its current job.
        let unmarked = currentWorker.flatMap { $0.blocked ? nil : $0 }
        guard queued.load(ordering: .acquiring) > 0 || unmarked != nil else { return }
        lock.lock()
        if let worker = unmarked {
            worker.blocked = true
            blocked += 1
        }
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

    /// Whether queued work has made no progress for `stallNanos`: the oldest job has waited that long and
    /// no worker took a job in that time. Caller holds the lock.
    private func isStalled(now: UInt64) -> Bool {
        guard head < jobs.count, !sleepers.isEmpty, pendingWakes == 0 else { return false }
        return now &- max(enqueued[head], lastTaken) > stallNanos
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
        let state = Unmanaged.passRetained(WorkerState(pool: self))
        pthread_setspecific(Self.stateKey, state.toOpaque())
        defer {
            pthread_setspecific(Self.stateKey, nil)
            state.release()
        }
        let worker = state.takeUnretainedValue()
        while let job = next(wake, worker) {
            job()
        }
    }

    /// The next job for `worker`, whose previous job (if any) has ended. Nil once the pool is stopped.
    private func next(_ wake: DispatchSemaphore, _ worker: WorkerState) -> Job? {
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
        // The previous job's announced wait, if any, is over. (During the spin above the worker still
        // counted as blocked; it was idle-awake then, so no submit woke anyone for it either way.)
        if worker.blocked {
            worker.blocked = false
            blocked -= 1
        }
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
        let now = Sys.monotonicNanos()
        // The job now first in the queue: stalled if it has waited past `stallNanos` and nothing was taken
        // meanwhile (checked before this take counts as progress).
        let stalledBefore = idleAwake.load(ordering: .acquiring) == 0 && isStalled(now: now)
        lastTaken = now
        let chained = stalledBefore ? popSleeper() : nil
        lock.unlock()
        chained?.signal()
        return job
    }
}
