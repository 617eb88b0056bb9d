import XCTest
@testable import Storage

/// What write jobs keep between group commits: only committed values, never one from a failed job, and a
/// key being changed is read anew by the rest of its transaction.
final class WriterCacheTests: XCTestCase {
    private struct Failure: Error {}

    func testEntriesAreCommittedValuesUntilAChangeForgetsThem() throws {
        let (storage, _) = try makeStorage(self)
        let cache = WriterCache<String?>(capacity: 16)
        let seen = try storage.writeAndWait { ctx -> [String??] in
            let before = cache.value("Probe")
            cache.remember("v1", for: "Probe", after: ctx)
            cache.remember(nil, for: "Missing", after: ctx)
            // Kept only once this transaction has committed.
            return [before, cache.value("Probe")]
        }
        XCTAssertEqual(seen, [nil, nil])
        XCTAssertEqual(try storage.writeAndWait { _ in cache.value("Probe") }, .some("v1"))
        XCTAssertEqual(try storage.writeAndWait { _ in cache.value("Missing") }, .some(nil), "a known absence is kept too")

        let changing = try storage.writeAndWait { ctx -> [String??] in
            cache.forget("Probe", in: ctx)
            let afterForget = cache.value("Probe")
            cache.remember("v2", for: "Probe", after: ctx)
            return [afterForget, cache.value("Probe")]
        }
        XCTAssertEqual(changing, [nil, nil], "forgotten at once, the new value kept only after the commit")
        XCTAssertEqual(cache.value("Probe"), .some("v2"))
    }

    func testAFailedJobKeepsNothingAndAForgetOutlivesEarlierRemembers() throws {
        let (storage, _) = try makeStorage(self)
        let cache = WriterCache<String>(capacity: 16)
        XCTAssertThrowsError(try storage.writeAndWait { ctx in
            cache.remember("lost", for: "k", after: ctx)
            throw Failure()
        })
        XCTAssertNil(cache.value("k"))
        // Two jobs of one group commit: the first remembers what it read, the second changes the key. After
        // the commit the key is forgotten, not left at the first job's value.
        let done = DispatchSemaphore(value: 0)
        storage.write({ _ in usleep(50_000) }, completion: { _ in })
        storage.write({ ctx in cache.remember("read", for: "k", after: ctx) }, completion: { _ in })
        storage.write({ ctx in cache.forget("k", in: ctx) }, completion: { _ in done.signal() })
        done.wait()
        XCTAssertNil(cache.value("k"))
    }

    func testTheCacheStaysBounded() throws {
        let (storage, _) = try makeStorage(self)
        let cache = WriterCache<Int>(capacity: 512)
        try storage.writeAndWait { ctx in
            for i in 0..<2_000 { cache.remember(i, for: "C\(i)", after: ctx) }
        }
        XCTAssertEqual(cache.value("C1999"), 1999)
        XCTAssertNil(cache.value("C0"))
        XCTAssertLessThanOrEqual(cache.count, 512)
    }
}
