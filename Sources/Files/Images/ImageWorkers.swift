import CVips
import Foundation

/// The image worker pool: `count` threads of its own that run decodes one at a time each, fed from one
/// first-come-first-served queue. A caller that is not served within its waiting limit gives up
/// (`run` returns nil) instead of piling up.
///
/// Decodes run here rather than on the callers' threads so that their memory comes and goes in a few
/// threads' allocator arenas: a JPEG decoder can take tens of megabytes (a progressive 12-megapixel
/// JPEG holds all its coefficients), and spread over many request threads' arenas that memory stays
/// resident long after. After each job the allocator is asked to give free memory back for the same
/// reason. Threads start with the first job, so a daemon that never resizes an image has none.
final class ImageWorkers: @unchecked Sendable {
    /// One queued call: the work, and its outcome once a worker ran it.
    private final class Job: @unchecked Sendable {
        let work: () -> Void
        var finished = false
        init(_ work: @escaping () -> Void) { self.work = work }
    }

    // Everything below is guarded by `condition`.
    private let condition = NSCondition()
    private var queue: [Job] = []
    private var started = 0
    private var busy = 0
    private var stopping = false
    let count: Int

    /// A pool of `count` (at least 1) workers.
    init(count: Int) {
        self.count = max(1, count)
    }

    /// Runs `work` on a worker and returns its result; nil when no worker took it within `timeout`.
    /// Blocks the caller meanwhile.
    func run<T>(timeout: Duration, _ work: @escaping () -> T) -> T? {
        nonisolated(unsafe) var result: T?
        let job = Job { result = work() }
        let deadline = Date(timeIntervalSinceNow: Self.seconds(timeout))
        condition.lock()
        defer { condition.unlock() }
        queue.append(job)
        startWorkerIfNeeded()
        condition.broadcast()
        while !job.finished {
            if queue.contains(where: { $0 === job }) {
                // Still queued at the deadline: withdraw.
                if !condition.wait(until: deadline), let index = queue.firstIndex(where: { $0 === job }) {
                    queue.remove(at: index)
                    return nil
                }
            } else {
                // A worker has it: wait for the end, however long the decode takes.
                condition.wait()
            }
        }
        return result
    }

    /// Lets the threads end once the queue is empty (the owner is going away).
    func shutdown() {
        condition.withLock {
            stopping = true
            condition.broadcast()
        }
    }

    /// Callers waiting for a worker now.
    var waiting: Int {
        condition.withLock { queue.count }
    }

    /// Jobs running now.
    var running: Int {
        condition.withLock { busy }
    }

    /// Starts another thread while there are fewer than `count` and queued work no idle one will take.
    private func startWorkerIfNeeded() {
        guard started < count, queue.count > started - busy else { return }
        started += 1
        let thread = Thread { [self] in loop() }
        thread.name = "quartet-image-\(started)"
        // Decoders keep small stacks, but libvips' worst case is not documented: be generous.
        thread.stackSize = 4 << 20
        thread.start()
    }

    private func loop() {
        condition.lock()
        while true {
            while queue.isEmpty && !stopping { condition.wait() }
            if queue.isEmpty {
                started -= 1
                condition.unlock()
                return
            }
            let job = queue.removeFirst()
            busy += 1
            condition.unlock()
            job.work()
            cvips_release_memory()
            condition.lock()
            busy -= 1
            job.finished = true
            condition.broadcast()
        }
    }

    static func seconds(_ duration: Duration) -> Double {
        let parts = duration.components
        return max(0, Double(parts.seconds) + Double(parts.attoseconds) / 1e18)
    }
}
