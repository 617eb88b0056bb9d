import CEventLoop
import Dispatch
import Synchronization

/// Hands freed heap memory back to the kernel after large requests, so a burst of big bodies does not
/// leave the process at its peak size.
///
/// glibc keeps freed memory in its arenas; with many worker threads there are many arenas, and a freed
/// block in the middle of one is kept even when all of it is free. `malloc_trim(0)` returns the free
/// pages of every arena. It costs a walk over the heaps, so it runs only when the last charged body of a
/// burst has finished (see `DecodingBudget`), never per small request.
enum HeapTrim {
    /// Fixes glibc's mmap threshold at `mmapThreshold` bytes. By default glibc raises the threshold to the
    /// size of each large block freed (up to 32 MiB), after which multi-megabyte buffers of later requests
    /// come from the arenas and stay there once freed; with the threshold fixed they are mapped on their
    /// own and unmapped on free. Small allocations (everything on the hot paths) are unaffected.
    static func configure(mmapThreshold: Int32 = 1 << 20) {
        _ = quartet_heap_set_mmap_threshold(mmapThreshold)
    }

    /// Returns the free pages of every arena to the kernel.
    static func trim() {
        trims.add(1, ordering: .relaxed)
        _ = quartet_heap_trim()
    }

    /// Trims made so far (tests read it to see the late trims happen).
    static let trims = Atomic<Int>(0)

    private static let secondTrimScheduled = Atomic<Bool>(false)
    private static let lateTrimsScheduled = Atomic<Bool>(false)

    /// Seconds after the second trim at which the heap is trimmed again (2, 4 and 8 s after the burst).
    /// Some of a burst's memory is freed later than its last response: the writer frees a batch's jobs and
    /// releases its page cache on its own thread when its queue has run dry, and a worker may still hold a
    /// refused body's buffers. Freed after the second trim, those blocks stayed in the arenas: a Couch
    /// `_bulk_docs` burst once left 134 MiB of anonymous memory 5 s after its last answer, where other runs
    /// of the same burst came back to idle. A trim of an idle heap costs a walk of the arenas, so three
    /// more, spaced out, cost nothing that matters.
    static let lateTrimDelays: [Double] = [1, 3, 7]

    /// Trims now, and once more a second later: the event loops free the connections' buffers and request
    /// state only after the last response of a burst is sent, after the first trim. Bursts within that
    /// second share the later trim, and `afterBurst` (`ServerConfiguration.afterBurst`) runs with it: at
    /// most once a second, however many bursts end in it (the action of the burst that scheduled it; the
    /// servers of one process share one).
    static func trimAfterBurst(then afterBurst: (@Sendable () -> Void)? = nil) {
        trim()
        guard !secondTrimScheduled.exchange(true, ordering: .acquiringAndReleasing) else { return }
        DispatchQueue.global(qos: .utility).asyncAfter(deadline: .now() + .seconds(1)) {
            secondTrimScheduled.store(false, ordering: .releasing)
            afterBurst?()
            trim()
            scheduleLateTrims()
        }
    }

    /// The trims of `lateTrimDelays`, once per burst (bursts during them share them).
    private static func scheduleLateTrims() {
        guard !lateTrimsScheduled.exchange(true, ordering: .acquiringAndReleasing) else { return }
        for (index, delay) in lateTrimDelays.enumerated() {
            let last = index == lateTrimDelays.count - 1
            DispatchQueue.global(qos: .utility).asyncAfter(deadline: .now() + delay) {
                if last { lateTrimsScheduled.store(false, ordering: .releasing) }
                trim()
            }
        }
    }
}
