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

    /// The entries, split by digest over independent shards. Every signed request of an environment
    /// records its nonce here, from up to `server.workerThreads` threads at once: one lock made them queue
    /// (and wait out every rehash of one big table); with shards two requests meet only when their digests
    /// fall in the same shard, and a rehash moves one shard's entries.
    private let shards: [Shard]

    /// One shard: its own lock, table, buckets and share of the capacity.
    private final class Shard: Sendable {
        let capacity: Int
        let state = Mutex(State())

        init(capacity: Int) {
            self.capacity = capacity
        }
    }

    private struct State {
        /// Nonce digest -> expiry (ms).
        var expiries: [NonceDigest: Int64] = [:]
        /// Expiry second -> digests filed under it (some may have been re-filed since; see purge).
        var buckets: [Int64: [NonceDigest]] = [:]
        /// The clock second of the last purge.
        var purgedSecond = Int64.min
    }

    /// Shards of a large cache. A small capacity keeps one shard, so that its bound is exact (a share of
    /// a few entries per shard would refuse long before the whole is full).
    static let shardCount = 64
    /// Capacities below this many entries per shard use a single shard.
    static let minimumShardCapacity = 1024

    /// An empty cache holding at most `capacity` live nonces.
    public init(capacity: Int = 2_000_000) {
        let total = max(1, capacity)
        self.capacity = total
        let count = total >= Self.shardCount * Self.minimumShardCapacity ? Self.shardCount : 1
        // Shares rounded down: the shards together never hold more than `capacity`.
        shards = (0..<count).map { _ in Shard(capacity: max(1, total / count)) }
    }

    /// Number of entries held (live, or expired and not yet purged).
    public var count: Int { shards.reduce(0) { total, shard in total + shard.state.withLock { $0.expiries.count } } }

    /// Remembers `nonce` until `expiresAt` (ms) unless it is already live at `now` (ms). Check and insert
    /// are one step under the shard's lock, so of two identical concurrent requests exactly one is accepted.
    public func record(nonce: String, expiresAt: Int64, now: Int64) -> Outcome {
        let digest = NonceDigest(nonce)
        // The digest's top bits pick the shard; the table hashes the whole value.
        let shard = shards[shards.count == 1 ? 0 : Int(truncatingIfNeeded: digest.value >> 58) % shards.count]
        let capacity = shard.capacity
        return shard.state.withLock { state in
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
