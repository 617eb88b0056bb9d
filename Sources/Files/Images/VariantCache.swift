import Core
import Dispatch

/// The on-disk cache of variants: one file per variant under `directory`, an in-memory index of them in
/// recency order, and a bound on their total size kept by evicting the least recently used.
///
/// Layout: `<directory>/<ab>/<name>-<nonce>.<ext>`, where `name` is 32 hex digits naming the variant, `ab`
/// its first two, and `nonce` 16 random hex digits that make every generation's file name new; files
/// being written live in `<directory>/tmp`. A variant is written to a temp file, fsynced, renamed into
/// place and its directory fsynced before it is indexed. At start-up the index is rebuilt from the
/// files (recency from their modification times) and leftover temp files are removed.
///
/// A looked-up path is opened by the server only after the handler returns. So that eviction never
/// deletes a file a response is about to send, an evicted file leaves the index (and the size count)
/// at once but stays on disk for `grace`, under a name no later variant reuses; it is deleted by the
/// next cache operation after that.
final class VariantCache: Sendable {
    /// A cached variant.
    struct Entry: Sendable, Equatable {
        /// Absolute path of the file.
        let path: String
        /// Its size in bytes.
        let size: Int
        /// Its format (the source's).
        let format: ImageFormat
    }

    private struct State {
        var index = LRUList<VariantName, Entry>()
        /// Names of recently asked identities, so that a hit computes no digest.
        var names: [VariantIdentity: VariantName] = [:]
        var bytes = 0
        /// Files out of the index, deleted once their time (monotonic nanoseconds) has come.
        var doomed: [(path: String, at: UInt64)] = []
        /// The bytes of small indexed variants (only of names in `index`: a variant leaving the index
        /// leaves this too), so that serving them opens no file.
        var memory: [VariantName: [UInt8]] = [:]
        var memoryBytes = 0

        mutating func forget(_ name: VariantName) {
            if let bytes = memory.removeValue(forKey: name) { memoryBytes -= bytes.count }
        }
    }

    let directory: String
    let tempDirectory: String
    /// The most bytes the indexed variants may take together.
    let limit: Int
    /// How long an evicted file stays on disk.
    let grace: Duration
    /// The most bytes of variants held in memory as well, and the largest one held.
    let memoryLimit: Int
    let memoryEntryLimit: Int
    private let state = Locked(State())

    /// Opens the cache in `directory` (created when missing) and indexes the variants already there.
    init(directory: String, limit: Int, grace: Duration, memoryLimit: Int = 0, memoryEntryLimit: Int = 0) throws {
        self.directory = directory
        tempDirectory = directory + "/tmp"
        self.limit = max(0, limit)
        self.grace = grace
        self.memoryLimit = max(0, memoryLimit)
        self.memoryEntryLimit = max(0, min(memoryEntryLimit, memoryLimit))
        try VariantFiles.makeDirectories(tempDirectory)
        rebuild()
    }

    /// The most identities whose names are remembered; past it the memory starts over.
    static let maxRememberedNames = 65536

    /// The variant `name`, which becomes the most recently used; nil when not cached.
    func lookup(_ name: VariantName) -> Entry? {
        state.withLock { $0.index.touch(name) }
    }

    /// The name of `identity` and its variant when cached (which becomes the most recently used). The
    /// name is remembered, so asking again costs dictionary lookups, not a digest.
    func lookup(_ identity: VariantIdentity, request: ResizeRequest) -> (name: VariantName, entry: Entry?) {
        if let found = state.withLock({ state in state.names[identity].map { ($0, state.index.touch($0)) } }) {
            return found
        }
        let name = identity.key.cacheName(for: request)
        return state.withLock { state in
            if state.names.count >= Self.maxRememberedNames { state.names.removeAll(keepingCapacity: true) }
            state.names[identity] = name
            return (name, state.index.touch(name))
        }
    }

    /// The bytes and format of `identity`'s variant when they are held in memory (the variant becomes the most
    /// recently used); nil when they are not, or the identity was not asked for through `lookup` before.
    func contents(_ identity: VariantIdentity) -> (bytes: [UInt8], format: ImageFormat)? {
        state.withLock { state in
            guard let name = state.names[identity], let bytes = state.memory[name],
                  let entry = state.index.touch(name) else { return nil }
            return (bytes, entry.format)
        }
    }

    /// Whether `entry`'s bytes are worth holding in memory and are not held yet.
    func wantsContents(of name: VariantName, _ entry: Entry) -> Bool {
        guard entry.size <= memoryEntryLimit else { return false }
        return state.withLock { $0.memory[name] == nil }
    }

    /// Holds `bytes`, the content of `entry`, in memory while `entry` is the indexed variant `name`. When the
    /// memory is full it starts over (the hot variants come back at their next request).
    func keep(_ bytes: [UInt8], of name: VariantName, _ entry: Entry) {
        guard bytes.count == entry.size, bytes.count <= memoryEntryLimit else { return }
        state.withLock { state in
            guard state.index.peek(name) == entry, state.memory[name] == nil else { return }
            if state.memoryBytes + bytes.count > memoryLimit {
                state.memory.removeAll(keepingCapacity: true)
                state.memoryBytes = 0
            }
            state.memory[name] = bytes
            state.memoryBytes += bytes.count
        }
    }

    /// Bytes of variants held in memory.
    var memoryBytes: Int { state.withLock { $0.memoryBytes } }

    /// Total size of the indexed variants.
    var bytes: Int { state.withLock { $0.bytes } }

    /// Number of indexed variants.
    var count: Int { state.withLock { $0.index.count } }

    /// Keys from the most to the least recently used.
    var keysByRecency: [VariantName] { state.withLock { $0.index.keysByRecency } }

    /// Stores `bytes` as variant `key`: temp file, fsync, rename into place, fsync of the directory, then
    /// indexing, evicting the least recently used variants until the bound holds. A variant larger than
    /// the whole bound is stored but not indexed: it stays on disk for `grace` only. Returns its entry.
    func store(_ bytes: [UInt8], key: VariantName, format: ImageFormat) throws -> Entry {
        let temporary = tempDirectory + "/" + VariantFiles.randomHex() + ".tmp"
        let hex = key.hex
        let folder = directory + "/" + String(hex.prefix(2))
        let path = folder + "/" + hex + "-" + VariantFiles.randomHex() + "." + format.fileExtension
        do {
            try VariantFiles.write(bytes, to: temporary)
            try VariantFiles.makeDirectories(folder)
            try VariantFiles.rename(temporary, path)
            try VariantFiles.sync(folder, directory: true)
        } catch {
            VariantFiles.remove(temporary)
            throw error
        }
        let entry = Entry(path: path, size: bytes.count, format: format)
        let now = Self.now()
        let due: [String] = state.withLock { state in
            if entry.size > limit {
                state.doomed.append((path, now + Self.nanoseconds(grace)))
            } else {
                if let replaced = state.index.insert(key, entry) {
                    state.bytes -= replaced.size
                    state.forget(key)
                    state.doomed.append((replaced.path, now + Self.nanoseconds(grace)))
                }
                state.bytes += entry.size
                while state.bytes > limit, let (evictedName, evicted) = state.index.removeOldest() {
                    state.bytes -= evicted.size
                    state.forget(evictedName)
                    state.doomed.append((evicted.path, now + Self.nanoseconds(grace)))
                }
            }
            return Self.takeDue(&state.doomed, now: now)
        }
        due.forEach(VariantFiles.remove)
        return entry
    }

    /// Indexes an existing variant file (start-up only) as the most recently used; returns the entry it
    /// replaced and the ones evicted to keep the bound (the new one itself when it alone exceeds it).
    func restore(_ key: VariantName, _ entry: Entry) -> (replaced: Entry?, evicted: [Entry]) {
        state.withLock { state in
            guard entry.size <= limit else { return (nil, [entry]) }
            let replaced = state.index.insert(key, entry)
            if let replaced {
                state.bytes -= replaced.size
                state.forget(key)
            }
            state.bytes += entry.size
            var evicted: [Entry] = []
            while state.bytes > limit, let (oldestName, oldest) = state.index.removeOldest() {
                state.bytes -= oldest.size
                state.forget(oldestName)
                evicted.append(oldest)
            }
            return (replaced, evicted)
        }
    }

    /// Deletes the evicted files whose grace is over.
    func reap() {
        let now = Self.now()
        let due = state.withLock { Self.takeDue(&$0.doomed, now: now) }
        due.forEach(VariantFiles.remove)
    }

    /// Files waiting out their grace.
    var doomedCount: Int { state.withLock { $0.doomed.count } }

    private static func takeDue(_ doomed: inout [(path: String, at: UInt64)], now: UInt64) -> [String] {
        guard doomed.contains(where: { $0.at <= now }) else { return [] }
        let due = doomed.filter { $0.at <= now }.map(\.path)
        doomed.removeAll { $0.at <= now }
        return due
    }

    static func now() -> UInt64 {
        DispatchTimeNow.nanoseconds()
    }

    static func nanoseconds(_ duration: Duration) -> UInt64 {
        let parts = duration.components
        guard parts.seconds >= 0 else { return 0 }
        let (scaled, overflow) = UInt64(parts.seconds).multipliedReportingOverflow(by: 1_000_000_000)
        return overflow ? UInt64.max / 2 : scaled + UInt64(max(0, parts.attoseconds) / 1_000_000_000)
    }
}
