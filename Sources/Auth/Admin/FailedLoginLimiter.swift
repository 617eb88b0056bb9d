import Foundation

/// Counts failed login attempts per client address and refuses an address that used up its
/// `FailedLoginPolicy` until its window ends, so a password cannot be guessed faster than the policy allows.
///
/// An attempt is reserved with `begin` before the (slow) password check and settled with `finish`. Reserved
/// attempts count against the limit as if they had failed, so that many guesses sent at once on parallel
/// connections cannot all slip past the check before the first failure is recorded.
///
/// Memory is bounded: at most `capacity` addresses are tracked. Addresses whose window has ended are
/// dropped first; when a flood of distinct addresses fills the table anyway, the oldest windows give way.
/// Successful attempts leave nothing behind.
public final class FailedLoginLimiter: @unchecked Sendable {
    /// The answer to `begin`.
    public enum Admission: Sendable, Equatable {
        /// Go ahead and check the password; call `finish` afterwards.
        case admitted
        /// Refused without checking; the address may try again after this many seconds.
        case refused(retryAfterSeconds: Int)
    }

    private struct Entry {
        /// When the address's current window began (seconds on the caller's monotonic clock).
        var windowStart: Double
        var failures: Int
        /// Attempts begun and not yet finished.
        var pending: Int
    }

    /// The policy applied.
    public let policy: FailedLoginPolicy
    /// Most addresses tracked at once.
    public let capacity: Int
    private let lock = NSLock()
    private var entries: [String: Entry] = [:]

    /// A limiter for `policy` tracking at most `capacity` addresses (10,000 entries take about a megabyte).
    public init(policy: FailedLoginPolicy, capacity: Int = 10_000) {
        self.policy = policy
        self.capacity = max(1, capacity)
    }

    /// How many addresses are tracked now.
    public var trackedAddresses: Int {
        lock.lock()
        defer { lock.unlock() }
        return entries.count
    }

    /// Seconds until `address` may try again when it has used up its failures in the current window; nil
    /// when it may try now. Reserves nothing (for checks that need no slow verification).
    public func refusal(for address: String, now: Double) -> Int? {
        lock.lock()
        defer { lock.unlock() }
        guard let entry = entries[address], !isExpired(entry, now: now), entry.failures >= policy.maxFailures else {
            return nil
        }
        return retryAfter(entry, now: now)
    }

    /// Reserves one attempt for `address`, or refuses it when its failures plus the attempts under way
    /// reach the policy's maximum.
    public func begin(_ address: String, now: Double) -> Admission {
        lock.lock()
        defer { lock.unlock() }
        var entry = current(address, now: now) ?? Entry(windowStart: now, failures: 0, pending: 0)
        if entry.failures + entry.pending >= policy.maxFailures {
            // Refused for attempts still under way: they may yet succeed, so a second is enough.
            return .refused(retryAfterSeconds: entry.failures >= policy.maxFailures ? retryAfter(entry, now: now) : 1)
        }
        entry.pending += 1
        store(entry, for: address, now: now)
        return .admitted
    }

    /// Settles an attempt reserved with `begin`: a failure is counted in the address's window.
    public func finish(_ address: String, failed: Bool, now: Double) {
        lock.lock()
        defer { lock.unlock() }
        var entry = current(address, now: now) ?? Entry(windowStart: now, failures: 0, pending: 0)
        entry.pending = max(0, entry.pending - 1)
        if failed { entry.failures += 1 }
        if entry.failures == 0 && entry.pending == 0 {
            entries[address] = nil
        } else {
            store(entry, for: address, now: now)
        }
    }

    // MARK: - Under the lock

    private func isExpired(_ entry: Entry, now: Double) -> Bool {
        now >= entry.windowStart + Double(policy.windowSeconds)
    }

    private func retryAfter(_ entry: Entry, now: Double) -> Int {
        let remaining = entry.windowStart + Double(policy.windowSeconds) - now
        return max(1, Int(remaining.rounded(.up)))
    }

    /// The address's entry with an ended window restarted (failures forgotten, attempts under way kept).
    private func current(_ address: String, now: Double) -> Entry? {
        guard var entry = entries[address] else { return nil }
        if isExpired(entry, now: now) {
            entry.windowStart = now
            entry.failures = 0
        }
        return entry
    }

    private func store(_ entry: Entry, for address: String, now: Double) {
        if entries[address] == nil, entries.count >= capacity { makeRoom(now: now) }
        entries[address] = entry
    }

    /// Drops ended windows; if that frees nothing, the oldest eighth of the table, so that a flood of new
    /// addresses costs one sort per `capacity / 8` insertions rather than a scan per insertion.
    private func makeRoom(now: Double) {
        entries = entries.filter { !isExpired($0.value, now: now) || $0.value.pending > 0 }
        guard entries.count >= capacity else { return }
        let oldest = entries.sorted { $0.value.windowStart < $1.value.windowStart }.prefix(max(1, capacity / 8))
        for (address, _) in oldest { entries[address] = nil }
    }
}
