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
        _ = quartet_heap_trim()
    }

    private static let secondTrimScheduled = Atomic<Bool>(false)

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
        }
    }
}
