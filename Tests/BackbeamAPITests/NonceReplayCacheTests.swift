import Dispatch
import XCTest
@testable import BackbeamAPI

final class NonceReplayCacheTests: XCTestCase {
    func testAcceptsOnceWhileLive() {
        let cache = NonceReplayCache()
        XCTAssertEqual(cache.record(nonce: "n1", expiresAt: 10_000, now: 5_000), .accepted)
        XCTAssertEqual(cache.record(nonce: "n1", expiresAt: 10_000, now: 6_000), .replayed)
        XCTAssertEqual(cache.record(nonce: "n1", expiresAt: 20_000, now: 10_000), .replayed, "live up to its expiry")
        XCTAssertEqual(cache.record(nonce: "n2", expiresAt: 10_000, now: 6_000), .accepted)
        XCTAssertEqual(cache.record(nonce: "n1", expiresAt: 20_000, now: 10_001), .accepted, "expired: usable again")
    }

    func testExpiredEntriesArePurged() {
        // One shard (a capacity below 64 x 1024): a record purges the whole cache, which `count` shows.
        let cache = NonceReplayCache(capacity: 10_000)
        for i in 0..<1_000 {
            XCTAssertEqual(cache.record(nonce: "a\(i)", expiresAt: 1_000 + Int64(i), now: 0), .accepted)
        }
        XCTAssertEqual(cache.count, 1_000)
        // At 1.5 s every entry of second 0 (expiries 1000..1999 fall in second 1) is still live...
        XCTAssertEqual(cache.record(nonce: "b", expiresAt: 5_000, now: 1_500), .accepted)
        XCTAssertEqual(cache.count, 1_001)
        // ...and once second 2 starts, all of them are gone.
        XCTAssertEqual(cache.record(nonce: "c", expiresAt: 5_000, now: 2_000), .accepted)
        XCTAssertEqual(cache.count, 2)
        XCTAssertEqual(cache.record(nonce: "a5", expiresAt: 5_000, now: 2_000), .accepted)
    }

    func testReacceptedNonceIsNotDroppedByItsOldBucket() {
        let cache = NonceReplayCache()
        XCTAssertEqual(cache.record(nonce: "n", expiresAt: 1_000, now: 0), .accepted)
        XCTAssertEqual(cache.record(nonce: "n", expiresAt: 9_000, now: 1_001), .accepted)
        // Purging second 1 must not remove the new entry filed under second 9.
        XCTAssertEqual(cache.record(nonce: "x", expiresAt: 9_000, now: 3_000), .accepted)
        XCTAssertEqual(cache.record(nonce: "n", expiresAt: 9_000, now: 3_000), .replayed)
    }

    func testCapacityIsABoundAndExpiryMakesRoom() {
        let cache = NonceReplayCache(capacity: 3)
        for n in ["a", "b", "c"] { XCTAssertEqual(cache.record(nonce: n, expiresAt: 1_500, now: 0), .accepted) }
        XCTAssertEqual(cache.record(nonce: "d", expiresAt: 1_500, now: 100), .full)
        XCTAssertEqual(cache.record(nonce: "a", expiresAt: 1_500, now: 100), .replayed)
        XCTAssertEqual(cache.count, 3)
        XCTAssertEqual(cache.record(nonce: "d", expiresAt: 5_000, now: 2_000), .accepted)
        XCTAssertEqual(cache.count, 1)
    }

    func testNegativeTimesUseFloorSeconds() {
        let cache = NonceReplayCache(capacity: 10_000)
        XCTAssertEqual(cache.record(nonce: "n", expiresAt: -1, now: -2), .accepted)
        XCTAssertEqual(cache.record(nonce: "n", expiresAt: -1, now: -1), .replayed)
        XCTAssertEqual(cache.record(nonce: "m", expiresAt: 10, now: 0), .accepted)
        XCTAssertEqual(cache.count, 1, "second -1 purged once second 0 began")
    }

    func testConcurrentIdenticalRequestsAcceptOnce() {
        let cache = NonceReplayCache()
        let accepted = Counter()
        DispatchQueue.concurrentPerform(iterations: 64) { _ in
            if cache.record(nonce: "same", expiresAt: 10_000, now: 0) == .accepted { accepted.increment() }
        }
        XCTAssertEqual(accepted.value, 1)
    }

    func testRegistryKeepsOneCachePerEnvironment() {
        let caches = NonceReplayCaches(capacityPerEnvironment: 5)
        let dev = caches.cache(project: "demo", env: "dev")
        XCTAssertTrue(dev === caches.cache(project: "demo", env: "dev"))
        XCTAssertFalse(dev === caches.cache(project: "demo", env: "pro"))
        XCTAssertFalse(dev === caches.cache(project: "demo-dev", env: "x"))
        XCTAssertEqual(dev.capacity, 5)
        XCTAssertEqual(dev.record(nonce: "n", expiresAt: 10, now: 0), .accepted)
        XCTAssertEqual(caches.cache(project: "demo", env: "pro").record(nonce: "n", expiresAt: 10, now: 0), .accepted)
    }
}

/// A cache large enough to be sharded keeps the same contract.
final class ShardedNonceReplayCacheTests: XCTestCase {
    func testShardedCacheAcceptsOnceAndBoundsItsSize() {
        let cache = NonceReplayCache(capacity: 64 * 1024)
        for i in 0..<20_000 {
            XCTAssertEqual(cache.record(nonce: "n\(i)", expiresAt: 100_000, now: 1_000), .accepted)
        }
        XCTAssertEqual(cache.count, 20_000)
        for i in stride(from: 0, to: 20_000, by: 997) {
            XCTAssertEqual(cache.record(nonce: "n\(i)", expiresAt: 100_000, now: 2_000), .replayed)
        }
        // Filling far past the capacity: every shard refuses at its share, so the whole never exceeds it.
        var full = 0
        for i in 0..<80_000 where cache.record(nonce: "m\(i)", expiresAt: 100_000, now: 3_000) == .full { full += 1 }
        XCTAssertGreaterThan(full, 0)
        XCTAssertLessThanOrEqual(cache.count, 64 * 1024)
        // Once those requests' times have left the window, room is made again.
        XCTAssertEqual(cache.record(nonce: "late", expiresAt: 500_000, now: 200_000), .accepted)
    }
}

/// A thread-safe counter for the concurrency test.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func increment() { lock.lock(); count += 1; lock.unlock() }
    var value: Int { lock.lock(); defer { lock.unlock() }; return count }
}
