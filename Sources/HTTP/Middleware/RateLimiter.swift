import Synchronization

/// A request refused by a `RateLimiter`: the rule it exceeded and when its window ends.
public struct RateLimitExceeded: Error, Sendable, Equatable {
    /// The rule whose count was reached.
    public let rule: RateLimitRule
    /// Whole seconds until the rule's current window ends (at least 1), for `Retry-After`.
    public let retryAfterSeconds: Int
}

/// Fixed-window counters per rule and zone key (see `RateLimitRule`).
///
/// Memory is bounded by `maxTrackedKeys` counters. They are kept in two generations: new counters go to
/// the current one, and when it holds half the bound it becomes the previous one, replacing (and so
/// forgetting) the counters nobody touched for a whole generation; a counter found in the previous
/// generation moves back to the current one. Every operation is then a dictionary lookup or two, even
/// under a flood of distinct addresses, where sweeping expired counters would walk them all each time.
/// A forgotten counter starts a new window, which favours the client over the limit only after half the
/// bound of other keys were seen meanwhile.
public final class RateLimiter: Sendable {
    /// The rules, in the order they are checked.
    public let rules: [RateLimitRule]
    /// The most counters held at once.
    public let maxTrackedKeys: Int
    /// Rules without `*`, by their exact path; and the indexes of the others. Every request is checked, and
    /// the usual rules name one path each, so one lookup finds them instead of a walk over every rule.
    private let exactRules: [String: [Int]]
    private let globRules: [Int]
    private let clock: @Sendable () -> Double
    private let counters = Mutex(Counters())

    /// A zone key longer than this is cut to it: keys come from request data (a forwarded address, a user
    /// id), and the memory bound must not depend on how long they are.
    static let maxKeyBytes = 256

    /// A limiter for `rules`, holding at most `maxTrackedKeys` counters. `clock` gives seconds on a
    /// monotonic scale (tests pass their own).
    public init(rules: [RateLimitRule], maxTrackedKeys: Int = 100_000,
                clock: @escaping @Sendable () -> Double = RateLimiter.monotonicSeconds) {
        self.rules = rules
        self.maxTrackedKeys = max(2, maxTrackedKeys)
        self.clock = clock
        var exact: [String: [Int]] = [:]
        var glob: [Int] = []
        for (index, rule) in rules.enumerated() {
            if rule.isGlob { glob.append(index) } else { exact[rule.path, default: []].append(index) }
        }
        exactRules = exact
        globRules = glob
    }

    /// Seconds since an arbitrary start, never going back (wall-clock changes do not reopen windows).
    public static func monotonicSeconds() -> Double {
        Double(Sys.monotonicNanos()) / 1_000_000_000
    }

    /// The number of counters held now (for tests and metrics).
    public var trackedKeys: Int {
        counters.withLock { $0.current.count + $0.previous.count }
    }

    /// Counts a request to `path` (relative to the group's prefix) with `method` against every rule that
    /// applies, in rule order, and returns the first rule over its count (nil: allowed). A refused request
    /// leaves the later rules uncounted. `subject` is evaluated only when some rule matches the path.
    public func check(path: String, method: String, subject: @autoclosure () -> RateLimitSubject) -> RateLimitExceeded? {
        var candidates = exactRules[path] ?? []
        for index in globRules where rules[index].matches(path) { candidates.append(index) }
        guard !candidates.isEmpty else { return nil }
        if !globRules.isEmpty { candidates.sort() }
        let who = subject()
        let loopback = who.isLoopback
        for index in candidates {
            let rule = rules[index]
            if let methods = rule.methods, !methods.contains(method) { continue }
            if who.isPrivileged && !rule.includePrivileged { continue }
            if loopback && !rule.includeLoopback { continue }
            var zoneKey = who.key(for: rule.zone)
            if zoneKey.utf8.count > Self.maxKeyBytes {
                zoneKey = String(decoding: zoneKey.utf8.prefix(Self.maxKeyBytes), as: UTF8.self)
            }
            let now = clock()
            let generation = maxTrackedKeys / 2
            let refusal = counters.withLock {
                $0.count(Counters.Key(rule: index, zone: zoneKey), now: now, rule: rule, generationSize: generation)
            }
            if let retryAfter = refusal { return RateLimitExceeded(rule: rule, retryAfterSeconds: retryAfter) }
        }
        return nil
    }
}

/// The two generations of counters of a `RateLimiter`.
private struct Counters {
    struct Key: Hashable {
        let rule: Int
        let zone: String
    }

    struct Bucket {
        var start: Double
        var count: Int
    }

    var current: [Key: Bucket] = [:]
    var previous: [Key: Bucket] = [:]

    /// Counts one request; nil when allowed, else the seconds until the window ends.
    mutating func count(_ key: Key, now: Double, rule: RateLimitRule, generationSize: Int) -> Int? {
        let inCurrent = current[key]
        var bucket = inCurrent ?? previous.removeValue(forKey: key) ?? Bucket(start: now, count: 0)
        if now - bucket.start >= rule.windowSeconds { bucket = Bucket(start: now, count: 0) }
        // A refused request is not counted: the window is fixed, so the answer until it ends is the same.
        let allowed = bucket.count < rule.count
        if allowed { bucket.count += 1 }
        if inCurrent == nil && current.count >= generationSize {
            previous = current
            current = [:]
        }
        current[key] = bucket
        if allowed { return nil }
        // Clamped before the conversion, which would trap on NaN, infinity or a value past Int's range.
        let remaining = bucket.start + rule.windowSeconds - now
        guard remaining >= 1 else { return 1 }
        return remaining < 1e9 ? Int(remaining.rounded(.up)) : 1_000_000_000
    }
}
