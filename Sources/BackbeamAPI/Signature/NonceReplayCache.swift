import Synchronization

/// The nonces accepted in one project environment while their requests are inside the time window
/// (§3.4 step 8), in memory and with bounded size.
///
/// An entry expires when its request's `time` leaves the window; after that the request would fail
/// step 5 anyway. Entries are filed in one-second buckets by expiry, and expired buckets are dropped at
/// most once per second (or whenever the cache is full): since accepted times lie within the window of
/// the clock, live buckets span at most two windows, so a purge walks a few hundred bucket keys plus
/// the entries it actually removes. A restart forgets everything, which the short window makes harmless.
public final class NonceReplayCache: Sendable {
    /// What happened to a nonce offered to the cache.
    public enum Outcome: Sendable, Equatable {
        /// New (or expired) nonce, now remembered.
        case accepted
        /// Already accepted and still inside the window.
        case replayed
        /// Not remembered: the cache holds `capacity` live entries.
        case full
    }

    /// Most live entries. An entry costs about 47 bytes (digest, expiry, bucket slot and table slack, as
    /// measured), so the default 2,000,000 is at most about 95 MB. An entry lives until five minutes
    /// after its request's time (up to ten for a client clock running early), so the bound is reached
    /// when one environment sustains about 6,600 signed requests per second; load tests at higher rates
    /// need a larger capacity, or they end in 503s.
    public let capacity: Int

    private let state: Mutex<State>

    private struct State {
        /// Nonce digest -> expiry (ms).
        var expiries: [NonceDigest: Int64] = [:]
        /// Expiry second -> digests filed under it (some may have been re-filed since; see purge).
        var buckets: [Int64: [NonceDigest]] = [:]
        /// The clock second of the last purge.
        var purgedSecond = Int64.min
    }

    /// An empty cache holding at most `capacity` live nonces.
    public init(capacity: Int = 2_000_000) {
        self.capacity = max(1, capacity)
        self.state = Mutex(State())
    }

    /// Number of entries held (live, or expired and not yet purged).
    public var count: Int { state.withLock { $0.expiries.count } }

    /// Remembers `nonce` until `expiresAt` (ms) unless it is already live at `now` (ms). Check and insert
    /// are one step under the lock, so of two identical concurrent requests exactly one is accepted.
    public func record(nonce: String, expiresAt: Int64, now: Int64) -> Outcome {
        let digest = NonceDigest(nonce)
        return state.withLock { state in
            let second = Self.second(of: now)
            if second != state.purgedSecond || state.expiries.count >= capacity {
                Self.purge(&state, now: now)
                state.purgedSecond = second
            }
            if let existing = state.expiries[digest], existing >= now { return .replayed }
            guard state.expiries.count < capacity || state.expiries[digest] != nil else { return .full }
            state.expiries[digest] = expiresAt
            state.buckets[Self.second(of: expiresAt), default: []].append(digest)
            return .accepted
        }
    }

    /// Drops every bucket whose whole second lies before `now`, and each digest in it whose recorded
    /// expiry is still in that bucket (a nonce accepted again after expiring was re-filed elsewhere).
    private static func purge(_ state: inout State, now: Int64) {
        let current = second(of: now)
        for bucket in state.buckets.keys where bucket < current {
            for digest in state.buckets.removeValue(forKey: bucket) ?? [] {
                if let expiry = state.expiries[digest], second(of: expiry) == bucket {
                    state.expiries.removeValue(forKey: digest)
                }
            }
        }
    }

    /// Floor of `ms / 1000`, also for negative values (bucket `b` holds expiries in `b*1000...b*1000+999`,
    /// all of them past once `now` reaches second `b + 1`).
    private static func second(of ms: Int64) -> Int64 {
        let q = ms / 1000
        return (ms % 1000 < 0) ? q - 1 : q
    }
}

/// A 64-bit keyed digest of a nonce, kept instead of the text: 8 bytes per entry whatever the nonce's
/// length, which is what keeps the cache's memory small and bounded. It is the process-seeded SipHash
/// of `Hasher`, so no client can aim for a collision; by chance a new nonce matches one of the `n`
/// held digests with probability `n / 2^64` (about 1e-13 with a million entries), and the only effect
/// would be that one request is refused as a replay.
struct NonceDigest: Hashable {
    let value: UInt64

    init(_ nonce: String) {
        var hasher = Hasher()
        hasher.combine(nonce)
        value = UInt64(bitPattern: Int64(hasher.finalize()))
    }
}

/// The replay caches of all project environments, created on first use.
public final class NonceReplayCaches: Sendable {
    private let caches = Mutex<[String: NonceReplayCache]>([:])
    /// The capacity each new cache gets.
    public let capacityPerEnvironment: Int

    /// An empty registry whose caches hold at most `capacityPerEnvironment` nonces each.
    public init(capacityPerEnvironment: Int = 2_000_000) {
        self.capacityPerEnvironment = capacityPerEnvironment
    }

    /// The cache of `project`'s environment `env` (separate per environment: a nonce used on `dev` is
    /// no replay on `pro`, whose keys differ anyway).
    public func cache(project: String, env: String) -> NonceReplayCache {
        let name = project + "/" + env
        return caches.withLock { caches in
            if let cache = caches[name] { return cache }
            let cache = NonceReplayCache(capacity: capacityPerEnvironment)
            caches[name] = cache
            return cache
        }
    }
}
