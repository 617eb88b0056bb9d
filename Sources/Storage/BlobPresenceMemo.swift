import Core
import Glibc

/// Blobs this process found on disk a moment ago, so that a presence check made on every request (a download
/// answered from memory that must still find its original) costs no `stat` each time.
///
/// Why an answer from memory is safe: a blob a row references is never deleted by the store while the row holds
/// it (garbage collection removes only blobs whose count has been zero for its age threshold, or files no row
/// knows), and every removal the store makes itself goes through `forgetAll()` first, so no removal by this
/// process is ever hidden. What memory cannot see is a file removed from outside (an operator, a damaged disk);
/// that is noticed once the entry is `lifetimeNanos` old, when the next check looks at the disk again.
final class BlobPresenceMemo: Sendable {
    private struct Entry {
        /// `State.generation` when the file was seen; a removal since then makes the entry stale.
        var generation: UInt64
        /// When the file was seen (the memo's clock).
        var seenAt: UInt64
    }

    private struct State {
        /// Moved by every removal the store makes (`forgetAll`).
        var generation: UInt64 = 0
        var seen: [String: Entry] = [:]
    }

    private let state = Locked(State())
    /// How long a file seen on disk is taken to be there without looking again: about one `stat` per second per
    /// blob under load instead of one per request, and a file removed from outside noticed within this time.
    let lifetimeNanos: UInt64
    /// Monotonic nanoseconds (`clock_gettime` is answered in user space, by the vDSO: no system call).
    let clock: @Sendable () -> UInt64
    /// Entries kept at most; the memo is emptied when it is full (the hot blobs come back at their next check).
    static let capacity = 1024
    static let defaultLifetimeNanos: UInt64 = 1_000_000_000

    init(lifetimeNanos: UInt64 = BlobPresenceMemo.defaultLifetimeNanos,
         clock: @escaping @Sendable () -> UInt64 = BlobPresenceMemo.monotonicNanos) {
        self.lifetimeNanos = lifetimeNanos
        self.clock = clock
    }

    /// Whether `hash` is present, from memory when it was seen less than `lifetimeNanos` ago and nothing was
    /// removed since, otherwise through `look` (which checks the disk), whose `true` is remembered.
    func contains(_ hash: String, look: (String) -> Bool) -> Bool {
        let now = clock()
        // The generation is read before the disk is looked at: a removal that starts after this point moves it,
        // so the entry recorded below is stale at once, whatever `look` saw.
        let generation = state.withLock { state -> UInt64? in
            if let entry = state.seen[hash], entry.generation == state.generation,
               now &- entry.seenAt < lifetimeNanos {
                return nil
            }
            return state.generation
        }
        guard let generation else { return true }
        guard look(hash) else { return false }
        state.withLock { state in
            guard state.generation == generation else { return }
            if state.seen.count >= Self.capacity && state.seen[hash] == nil { state.seen.removeAll() }
            state.seen[hash] = Entry(generation: generation, seenAt: now)
        }
        return true
    }

    /// Called before the store removes blob files: nothing remembered until now is trusted again.
    func forgetAll() {
        state.withLock { state in
            state.generation &+= 1
            state.seen.removeAll()
        }
    }

    /// Entries held now (for tests of the bound).
    var rememberedCount: Int { state.withLock { $0.seen.count } }

    static func monotonicNanos() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(clamping: time.tv_sec) &* 1_000_000_000 &+ UInt64(clamping: time.tv_nsec)
    }
}
