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
        /// The blob's hash.
        var hash: String
        /// `State.generation` when the file was seen; a removal since then makes the entry stale.
        var generation: UInt64
        /// When the file was seen (the memo's clock).
        var seenAt: UInt64
    }

    private struct State {
        /// Moved by every removal the store makes (`forgetAll`).
        var generation: UInt64 = 0
        /// A table with one place per slot of the hash's leading bytes (`slot(of:)`), not a dictionary: hashing
        /// the 64-digit key for a dictionary cost about 700 instructions per check. Two hot blobs that share a
        /// place take turns in it and look at the disk more often; nothing is answered wrongly.
        var entries: [Entry?] = Array(repeating: nil, count: BlobPresenceMemo.capacity)
    }

    private let state = Locked(State())
    /// How long a file seen on disk is taken to be there without looking again: about one `stat` per second per
    /// blob under load instead of one per request, and a file removed from outside noticed within this time.
    let lifetimeNanos: UInt64
    /// Monotonic nanoseconds (`clock_gettime` is answered in user space, by the vDSO: no system call).
    let clock: @Sendable () -> UInt64
    /// Places in the table (a power of two).
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
        let slot = Self.slot(of: hash)
        let generation = state.withLock { state -> UInt64? in
            if let entry = state.entries[slot], entry.generation == state.generation,
               now &- entry.seenAt < lifetimeNanos, entry.hash == hash {
                return nil
            }
            return state.generation
        }
        guard let generation else { return true }
        guard look(hash) else { return false }
        state.withLock { state in
            guard state.generation == generation else { return }
            state.entries[slot] = Entry(hash: hash, generation: generation, seenAt: now)
        }
        return true
    }

    /// The table place of `hash`: its first eight bytes (hex digits for a valid hash) mixed by a multiplication,
    /// the top bits kept. Any string gets a place in range; equal strings the same one.
    static func slot(of hash: String) -> Int {
        var hash = hash
        let word = hash.withUTF8 { bytes -> UInt64 in
            guard bytes.count >= 8, let base = bytes.baseAddress else { return UInt64(truncatingIfNeeded: bytes.count) }
            return UnsafeRawPointer(base).loadUnaligned(as: UInt64.self)
        }
        // 2^64 / golden ratio: spreads the digits' bits over the top ones; capacity is 2^10.
        return Int(truncatingIfNeeded: (word &* 0x9E37_79B9_7F4A_7C15) >> 54) & (capacity - 1)
    }

    /// Called before the store removes blob files: nothing remembered until now is trusted again.
    func forgetAll() {
        state.withLock { state in
            state.generation &+= 1
            for index in state.entries.indices { state.entries[index] = nil }
        }
    }

    /// Entries held now (for tests of the bound).
    var rememberedCount: Int { state.withLock { $0.entries.reduce(0) { $0 + ($1 == nil ? 0 : 1) } } }

    static func monotonicNanos() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(clamping: time.tv_sec) &* 1_000_000_000 &+ UInt64(clamping: time.tv_nsec)
    }
}
