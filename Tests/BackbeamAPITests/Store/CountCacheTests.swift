import XCTest
import Foundation
import Core
import Storage
@testable import BackbeamAPI

/// The totals kept between list queries (`CountCache`): an answer is used only by the connection that
/// counted it and only while that connection's data version is unchanged, so every commit (the store's own,
/// or one from another connection or process) makes the next query count again; the cache is bounded.
final class CountCacheTests: XCTestCase {
    private func temporaryDatabase() throws -> (URL, () throws -> Database) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bb-count-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent("c.sqlite").path
        return (directory, { try Database(path: path) })
    }

    func testAnswerIsPerConnectionAndVersion() throws {
        let (directory, open) = try temporaryDatabase()
        defer { try? FileManager.default.removeItem(at: directory) }
        let a = try open(), b = try open()
        let cache = CountCache(capacity: 2)
        let key = CountCache.Key(text: "SELECT count(*) ...", args: [.integer(1), .text("c0")])
        cache.keep(key, connection: a, version: 5, count: 40)
        XCTAssertEqual(cache.count(key, connection: a, version: 5), 40)
        XCTAssertNil(cache.count(key, connection: a, version: 6), "another data version")
        XCTAssertNil(cache.count(key, connection: b, version: 5), "another connection")
        XCTAssertNil(cache.count(CountCache.Key(text: key.text, args: [.integer(1), .text("c1")]), connection: a, version: 5))
        cache.keep(key, connection: b, version: 5, count: 41)
        cache.keep(key, connection: a, version: 6, count: 42)
        XCTAssertEqual(cache.count(key, connection: b, version: 5), 41)
        XCTAssertEqual(cache.count(key, connection: a, version: 6), 42)
        XCTAssertNil(cache.count(key, connection: a, version: 5), "replaced by the connection's newer answer")
        XCTAssertEqual(cache.count(on: a), 1)
        XCTAssertEqual(cache.count(on: b), 1)
    }

    func testHitsAndMissesAreCountedInTheMetrics() throws {
        let (directory, open) = try temporaryDatabase()
        defer { try? FileManager.default.removeItem(at: directory) }
        let a = try open()
        let metrics = MetricsRegistry()
        let cache = CountCache(capacity: 2, metrics: metrics)
        let key = CountCache.Key(text: "t", args: [])
        XCTAssertNil(cache.count(key, connection: a, version: 1))
        cache.keep(key, connection: a, version: 1, count: 3)
        XCTAssertEqual(cache.count(key, connection: a, version: 1), 3)
        XCTAssertEqual(cache.count(key, connection: a, version: 1), 3)
        XCTAssertNil(cache.count(key, connection: a, version: 2))
        let text = metrics.render()
        XCTAssertTrue(text.contains("quartet_backbeam_count_cache_hits_total 2\n"), text)
        XCTAssertTrue(text.contains("quartet_backbeam_count_cache_misses_total 1\n"), text)
    }

    func testAnswerOfAClosedConnectionIsNotTakenByANewOne() throws {
        let (directory, open) = try temporaryDatabase()
        defer { try? FileManager.default.removeItem(at: directory) }
        let cache = CountCache(capacity: 4)
        let key = CountCache.Key(text: "t", args: [])
        var ids: Set<ObjectIdentifier> = []
        var reused = false
        // Connections opened and freed one after the other are often at the same address: an answer kept
        // for a freed one must never be found for its successor. How soon an address comes back depends on
        // what the rest of the process allocates meanwhile, so the rounds go on until one does.
        for round in 0..<2_000 where !reused {
            let connection = try open()
            XCTAssertNil(cache.count(key, connection: connection, version: 1), "round \(round)")
            cache.keep(key, connection: connection, version: 1, count: round)
            XCTAssertEqual(cache.count(key, connection: connection, version: 1), round)
            reused = !ids.insert(ObjectIdentifier(connection)).inserted
        }
        // AddressSanitizer holds freed memory back from reuse (its quarantine), so under `make test-asan` no
        // address comes back within the rounds; the answers were still checked in every round.
        if !Self.addressSanitizerActive {
            XCTAssertTrue(reused, "some address was reused, so the test saw the case it is about")
        }
    }

    /// Whether this process runs under AddressSanitizer (its runtime's entry point is linked in).
    private static let addressSanitizerActive = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "__asan_init") != nil

    func testBoundedOldestEnteredLeavesFirst() throws {
        let (directory, open) = try temporaryDatabase()
        defer { try? FileManager.default.removeItem(at: directory) }
        let a = try open()
        let cache = CountCache(capacity: 2)
        let keys = (0..<3).map { CountCache.Key(text: "t", args: [.integer(Int64($0))]) }
        for (i, key) in keys.enumerated() { cache.keep(key, connection: a, version: 1, count: i) }
        XCTAssertEqual(cache.count(on: a), 2)
        XCTAssertNil(cache.count(keys[0], connection: a, version: 1))
        XCTAssertEqual(cache.count(keys[2], connection: a, version: 1), 2)
        XCTAssertEqual(cache.keys(on: a), [keys[1], keys[2]])
        // The bound is per connection: another one keeps its own answers and evicts none of `a`'s.
        let b = try open()
        for (i, key) in keys.prefix(2).enumerated() { cache.keep(key, connection: b, version: 1, count: 10 + i) }
        XCTAssertEqual(cache.keys(on: b), [keys[0], keys[1]])
        XCTAssertEqual(cache.count(keys[0], connection: b, version: 1), 10)
        XCTAssertEqual(cache.keys(on: a), [keys[1], keys[2]])
        // Keeping a newer answer for a kept key replaces it in place: nothing is evicted.
        cache.keep(keys[1], connection: a, version: 2, count: 7)
        XCTAssertEqual(cache.keys(on: a), [keys[1], keys[2]])
        XCTAssertEqual(cache.count(keys[1], connection: a, version: 2), 7)
        XCTAssertEqual(cache.count(keys[2], connection: a, version: 1), 2)
        let off = CountCache(capacity: 0)
        off.keep(keys[0], connection: a, version: 1, count: 0)
        XCTAssertNil(off.count(keys[0], connection: a, version: 1))
    }

    /// Through the store, with one read connection: a repeated query takes its total from the cache (shown by
    /// planting a wrong one), and a commit of the store or of another connection makes it count again.
    func testStoreCountsAgainAfterEveryCommit() throws {
        let f = try BackbeamStoreFixture(readerCount: 1)
        XCTAssertTrue(try f.store.declareIndex(space: f.space, entity: "place", field: "cat", now: 1))
        for i in 0..<12 { try f.create("place", [("set-cat", "c\(i % 2)")]) }
        XCTAssertEqual(try f.query("place", "where cat = ?", ["c0"], limit: 2).count, 6)
        XCTAssertEqual(try f.query("place", "where cat = ?", ["c0"], limit: 2, offset: 0).count, 6)
        // One reader connection: the one every query and `read` below use.
        XCTAssertEqual(try f.storage.read { f.store.counts.count(on: $0) }, 1)
        let key = try XCTUnwrap(try f.storage.read { f.store.counts.keys(on: $0) }.first)
        // A page that is the whole answer needs no count and keeps none.
        XCTAssertEqual(try f.query("place", "where cat = ?", ["c1"], limit: 10).count, 6)
        XCTAssertEqual(try f.storage.read { f.store.counts.count(on: $0) }, 1)
        // The cache answers while nothing was committed: a planted total comes back.
        try f.storage.read { db in
            let version = try XCTUnwrap(try db.queryOne("PRAGMA data_version")?[0].int64)
            f.store.counts.keep(key, connection: db, version: version, count: 99)
        }
        XCTAssertEqual(try f.query("place", "where cat = ?", ["c0"], limit: 2).count, 99)
        // A commit of the store: counted again, exact.
        try f.create("place", [("set-cat", "c0")])
        XCTAssertEqual(try f.query("place", "where cat = ?", ["c0"], limit: 2).count, 7)
        // A commit of another connection (as another process would make): counted again too.
        try f.storage.read { db in
            let version = try XCTUnwrap(try db.queryOne("PRAGMA data_version")?[0].int64)
            f.store.counts.keep(key, connection: db, version: version, count: 99)
        }
        let outside = try Database(path: f.directory.appendingPathComponent("quartet.sqlite").path)
        _ = try outside.run("UPDATE bb_objects SET data = json_set(data, '$.f' || (SELECT id FROM bb_fields WHERE name = 'cat'), 'c1') WHERE seq = (SELECT max(seq) FROM bb_objects)")
        XCTAssertEqual(try f.query("place", "where cat = ?", ["c0"], limit: 2).count, 6)
        XCTAssertEqual(try f.query("place", "where cat = ?", ["c1"], limit: 2).count, 7)
    }
}
