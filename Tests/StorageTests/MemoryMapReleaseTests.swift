import Foundation
import XCTest
@testable import Storage

/// `Storage.releaseMemory`: the idle connections unmap the database file (the pages they read through
/// the map leave the process's resident set), borrowed ones keep their maps, and every connection reads
/// correctly afterwards, mapping the file again.
final class MemoryMapReleaseTests: XCTestCase {
    /// How many times `path` itself (not its -wal or -shm file) is mapped into this process now.
    /// `/proc/self/maps` is read with `read(2)` until end of file: procfs reports a size of 0, and a reader that
    /// trusts the size or stops after one buffer sees only the first mappings, which in the whole test process
    /// (thousands of mappings) left the database's out.
    private func mappings(of path: String) throws -> Int {
        let fd = open("/proc/self/maps", O_RDONLY)
        guard fd >= 0 else { throw CocoaError(.fileReadUnknown) }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 { throw CocoaError(.fileReadUnknown) }
            if count == 0 { break }
            bytes.append(contentsOf: chunk[0..<count])
        }
        let maps = String(decoding: bytes, as: UTF8.self)
        return maps.split(separator: "\n").filter { $0.hasSuffix(" " + path) }.count
    }

    /// A storage on a database of 2,000 rows of 1 KB (about 2 MB) already checkpointed into the file: only
    /// pages of the file itself are read through the map (pages still in the WAL are read from it).
    private func makeFilledStorage(readers: Int) throws -> (Storage, String) {
        let dir = try makeTemporaryDirectory(self)
        let path = dir + "/test.sqlite3"
        let setup = try Database(path: path)
        try setup.execute("""
            CREATE TABLE t (n INTEGER PRIMARY KEY, v TEXT);
            WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 2000)
            INSERT INTO t SELECT i, printf('%.1000d', i) FROM c;
            PRAGMA wal_checkpoint(TRUNCATE);
            """)
        setup.close()
        var options = StorageOptions(path: path)
        options.readerCount = readers
        let storage = try Storage(options: options, logger: quietLogger)
        addTeardownBlock { storage.close() }
        return (storage, path)
    }

    private static func total(_ db: Database) throws -> Int64? {
        try db.queryOne("SELECT sum(length(v)) FROM t")?[0].int64
    }

    func testIdleConnectionsUnmapAndReadAgainAfterwards() throws {
        let (storage, path) = try makeFilledStorage(readers: 2)
        // A full scan on a pool reader, an immediate reader and the writer maps the file on each.
        XCTAssertEqual(try storage.read { try Self.total($0) }, 2_000_000)
        XCTAssertEqual(try storage.tryReadStatement { try Self.total($0) }, 2_000_000)
        XCTAssertEqual(try storage.writeAndWait { try Self.total($0.db) }, 2_000_000)
        XCTAssertGreaterThanOrEqual(try mappings(of: path), 3)

        storage.releaseMemory()
        // The pools' idle connections unmap at once; the writer as soon as it is idle, on its own thread.
        XCTAssertTrue(waitUntil { (try? self.mappings(of: path)) == 0 }, "the file is still mapped")

        // Every kind of connection still reads the same rows, and maps the file again to do it.
        XCTAssertEqual(try storage.read { try Self.total($0) }, 2_000_000)
        XCTAssertEqual(try storage.tryReadStatement { try Self.total($0) }, 2_000_000)
        XCTAssertEqual(try storage.writeAndWait { try Self.total($0.db) }, 2_000_000)
        XCTAssertGreaterThanOrEqual(try mappings(of: path), 3)
        // Writes go on too, and are seen.
        try storage.writeAndWait { try $0.db.run("INSERT INTO t VALUES (2001, 'x')") }
        XCTAssertEqual(try storage.read { try $0.queryOne("SELECT count(*) FROM t")?[0].int64 }, 2001)
    }

    func testABorrowedConnectionKeepsItsMapAndItsReadGoesOn() throws {
        let (storage, path) = try makeFilledStorage(readers: 1)
        let released = try storage.read { db -> Int in
            XCTAssertEqual(try Self.total(db), 2_000_000)
            // The only pool reader is borrowed here: nothing of the pool is released, and the read transaction
            // goes on over its mapped pages.
            let released = storage.readers.releaseMemory()
            XCTAssertEqual(try Self.total(db), 2_000_000)
            XCTAssertEqual(try mappings(of: path), 1)
            return released
        }
        XCTAssertEqual(released, 0)
        XCTAssertEqual(storage.readers.releaseMemory(), 1)
        XCTAssertEqual(try mappings(of: path), 0)
    }

    func testIdleConnectionsFreeTheirPageCaches() throws {
        let (storage, _) = try makeFilledStorage(readers: 1)
        // The point-read connections never map: a full scan fills the page cache (up to its 2 MiB).
        XCTAssertEqual(try storage.readStatement { try Self.total($0) }, 2_000_000)
        let filled = try storage.lookups.withConnection { $0.pageCacheBytes }
        XCTAssertGreaterThan(filled, 1 << 20)
        // The writer copies every page it reads through a write transaction's cache.
        try storage.writeAndWait { try $0.db.run("UPDATE t SET v = v || 'x'") }
        let written = try storage.writeAndWait { $0.db.pageCacheBytes }
        XCTAssertGreaterThan(written, 1 << 20)

        storage.releaseMemory()
        XCTAssertLessThan(try storage.lookups.withConnection { $0.pageCacheBytes }, filled / 4)
        // The writer's goes when it is idle; each look is a job of its own, in a transaction of its own.
        XCTAssertTrue(waitUntil { ((try? storage.writeAndWait { $0.db.pageCacheBytes }) ?? .max) < written / 4 })
        XCTAssertEqual(try storage.readStatement { try $0.queryOne("SELECT sum(length(v)) FROM t")?[0].int64 }, 2_002_000)
    }

    func testConnectionsWithoutAMapAreReleasedToo() throws {
        let (storage, _) = try makeStorage(self) { $0.mmapSizeBytes = 0; $0.readerCount = 2 }
        try storage.writeAndWait { try $0.db.execute("CREATE TABLE t (n); INSERT INTO t VALUES (1)") }
        XCTAssertEqual(storage.readers.releaseMemory(), 2)
        XCTAssertEqual(storage.lookups.releaseMemory(), 2)
        storage.releaseMemory()
        XCTAssertEqual(try storage.readStatement { try $0.queryOne("SELECT n FROM t")?[0].int64 }, 1)
        XCTAssertEqual(try storage.read { try $0.queryOne("SELECT n FROM t")?[0].int64 }, 1)
    }

    func testReleasingAfterCloseDoesNothing() throws {
        let (storage, _) = try makeStorage(self)
        storage.close()
        storage.releaseMemory()
        XCTAssertEqual(storage.readers.releaseMemory(), 0)
    }

    private func waitUntil(_ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if condition() { return true }
            Thread.sleep(forTimeInterval: 0.01)
        }
        return condition()
    }
}
