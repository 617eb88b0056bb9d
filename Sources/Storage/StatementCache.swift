/// Least-recently-used cache of prepared statements keyed by their SQL text.
///
/// Preparing is a noticeable part of a short query's cost, and the same few statements run over and
/// over, so each connection keeps the most recent `capacity` of them.
final class StatementCache {
    /// A class, so that marking a use does not look the SQL text up a second time.
    private final class Entry {
        let statement: Statement
        /// Unchecked like the cache's own state: a cache belongs to one connection, which one thread uses
        /// at a time, and the run-time exclusivity checks were a third of a cache hit.
        @exclusivity(unchecked) var lastUse: UInt64
        /// Where the bytes of `statement.sql` are, when that text lives in memory of its own (see
        /// `textAddress(of:)`); the entry keeps that memory alive by holding the string.
        let address: UInt?
        /// The length of `statement.sql` in UTF-8 bytes, compared without touching the string.
        let textCount: Int

        init(statement: Statement, lastUse: UInt64) {
            self.statement = statement
            self.lastUse = lastUse
            self.address = StatementCache.textAddress(of: statement.sql)
            self.textCount = statement.sql.utf8.count
        }

        /// True when `address` and `count` are those of this entry's text: then it is the same bytes (see
        /// `textAddress(of:)`).
        func holds(address: UInt, count: Int) -> Bool {
            self.address == address && textCount == count
        }
    }

    @exclusivity(unchecked) private var entries: [String: Entry] = [:]
    /// Entries found again by the address of their SQL text rather than by hashing it. Nearly every
    /// statement is a string literal, whose bytes sit at one fixed address for the life of the process,
    /// and hashing and comparing a 100-byte text on every use cost about 1,000 instructions per statement
    /// (six statements per Datastore delta on the writer thread). Two-way: an address maps to a pair of
    /// slots, so two statements of one job whose addresses share a pair do not keep displacing each other.
    @exclusivity(unchecked) private var recent: [Entry?] = Array(repeating: nil, count: StatementCache.recentSlots)
    /// A power of two; `slot(_:)` keeps the top log2(recentSlots) bits of the hash.
    private static let recentSlots = 256
    /// Advances on every use; the entry with the smallest `lastUse` is the least recently used.
    @exclusivity(unchecked) private var clock: UInt64 = 0
    let capacity: Int

    init(capacity: Int) {
        self.capacity = max(0, capacity)
    }

    var count: Int { entries.count }

    /// The cached statement for `sql`, marked most recently used.
    func statement(for sql: String) -> Statement? {
        let address = Self.textAddress(of: sql)
        if let address {
            let slot = Self.slot(address)
            let count = sql.utf8.count
            if let entry = recent[slot], entry.holds(address: address, count: count) { return use(entry) }
            if let entry = recent[slot ^ 1], entry.holds(address: address, count: count) { return use(entry) }
        }
        // One dictionary update per use: an ordered list made every lookup search and shift it, which
        // showed in profiles of the writer thread, where every job runs several cached statements.
        guard let entry = entries[sql] else { return nil }
        // Only an entry found through its own text is remembered under that text's address: another
        // string with equal bytes may be freed and its memory reused for different text.
        if let address, entry.address == address {
            place(entry, at: address)
        }
        return use(entry)
    }

    private func use(_ entry: Entry) -> Statement {
        clock &+= 1
        entry.lastUse = clock
        return entry.statement
    }

    /// Adds a statement, evicting (and so finalizing) the least recently used one when full.
    func insert(_ statement: Statement) {
        guard capacity > 0 else { return }
        clock &+= 1
        if let old = entries[statement.sql] {
            forget(old)
            entries[statement.sql] = remembered(Entry(statement: statement, lastUse: clock))
            return
        }
        // Evict an idle statement only: one in use is still being stepped by an outer call. The scan is
        // linear in the capacity, and only runs when a new statement arrives at a full cache.
        while entries.count >= capacity,
              let victim = entries.lazy.filter({ !$0.value.statement.inUse }).min(by: { $0.value.lastUse < $1.value.lastUse }) {
            forget(victim.value)
            entries[victim.key] = nil
        }
        guard entries.count < capacity else { return }
        entries[statement.sql] = remembered(Entry(statement: statement, lastUse: clock))
    }

    /// Drops every statement (finalizing them).
    func removeAll() {
        entries.removeAll()
        for i in recent.indices { recent[i] = nil }
    }

    /// Puts a new entry in its address slots, so the next use of the same text finds it there.
    private func remembered(_ entry: Entry) -> Entry {
        if let address = entry.address { place(entry, at: address) }
        return entry
    }

    /// Fills the empty slot of the address's pair, or else the first one.
    private func place(_ entry: Entry, at address: UInt) {
        let slot = Self.slot(address)
        recent[recent[slot] != nil && recent[slot ^ 1] == nil ? slot ^ 1 : slot] = entry
    }

    /// Takes an entry that leaves the cache out of its address slots, so no slot keeps its statement.
    private func forget(_ entry: Entry) {
        guard let address = entry.address else { return }
        let slot = Self.slot(address)
        if recent[slot] === entry { recent[slot] = nil }
        if recent[slot ^ 1] === entry { recent[slot ^ 1] = nil }
    }

    /// The address of the UTF-8 bytes of `text` when they are stored apart from the string value itself,
    /// nil otherwise. Up to 15 bytes live inside the value (a small string), so a pointer to them would
    /// point at a temporary copy. Longer native strings keep their bytes in a buffer that does not move or
    /// change while any string holds it (a change copies the buffer first), and string literals in the
    /// binary's constant data. So while an entry holds its text, no other string of the same length can
    /// start at that address unless it has the very same bytes.
    static func textAddress(of text: String) -> UInt? {
        let utf8 = text.utf8
        guard utf8.count > 15 else { return nil }
        return utf8.withContiguousStorageIfAvailable { buffer in
            buffer.baseAddress.map { UInt(bitPattern: $0) }
        } ?? nil
    }

    /// A slot for `address`: Fibonacci hashing, since the low bits of aligned addresses are mostly zero.
    private static func slot(_ address: UInt) -> Int {
        Int(truncatingIfNeeded: (UInt64(address) &* 0x9E37_79B9_7F4A_7C15) >> UInt64(64 - recentSlots.trailingZeroBitCount))
    }
}
