import Foundation
import XCTest
@testable import Storage

/// The write connection's WAL writes through `WALWriteBuffer` (the VFS in CWALBuffer).
final class WALWriteBufferTests: XCTestCase {
    private func walWrites(during body: () throws -> Void) rethrows -> (sqlite: UInt64, file: UInt64) {
        let before = WALWriteBuffer.counters
        try body()
        let after = WALWriteBuffer.counters
        return (after.sqliteWrites - before.sqliteWrites, after.fileWrites - before.fileWrites)
    }

    func testACommitOfManyPagesReachesTheFileInFewWrites() throws {
        let (storage, _) = try makeStorage(self)
        try storage.writeAndWait { try $0.db.execute("CREATE TABLE t (b BLOB)") }
        let writes = try walWrites {
            try storage.writeAndWait { ctx in
                for _ in 0..<100 { try ctx.db.run("INSERT INTO t VALUES (zeroblob(3500))") }
            }
        }
        // SQLite writes each frame as two calls (header, page): 100 pages or more, 200 calls or more.
        XCTAssertGreaterThanOrEqual(writes.sqlite, 200)
        XCTAssertLessThanOrEqual(writes.file, 8, "the frames should reach the file in pieces of 31 pages")
        XCTAssertEqual(try storage.read { try $0.queryOne("SELECT count(*) FROM t")?[0].int64 }, 100)
    }

    func testACommitLargerThanTheBufferAndThanOneFileWriteCommitsWhole() throws {
        // 4 MB in one transaction: several full buffers, each more than the default VFS takes in one call
        // (it keeps only the low 17 bits of a length), and with a 64 KiB buffer many small flushes.
        for bytes in [1 << 20, 64 << 10] {
            try commitFourMegabytes(walWriteBufferBytes: bytes)
        }
    }

    private func commitFourMegabytes(walWriteBufferBytes: Int) throws {
        let (storage, _) = try makeStorage(self) { $0.walWriteBufferBytes = walWriteBufferBytes }
        try storage.writeAndWait { try $0.db.execute("CREATE TABLE t (i INTEGER, b BLOB)") }
        try storage.writeAndWait { ctx in
            for i in 0..<1000 { try ctx.db.run("INSERT INTO t VALUES (?, randomblob(4000))", [.integer(Int64(i))]) }
        }
        let row = try storage.read { try $0.queryOne("SELECT count(*), sum(length(b)), sum(i) FROM t") }
        XCTAssertEqual(row?[0].int64, 1000)
        XCTAssertEqual(row?[1].int64, 4_000_000)
        XCTAssertEqual(row?[2].int64, 499_500)
    }

    func testAJobReadsBackPagesItsOwnTransactionSpilledToTheWAL() throws {
        let (storage, _) = try makeStorage(self)
        try storage.writeAndWait { try $0.db.execute("CREATE TABLE t (i INTEGER PRIMARY KEY, b BLOB)") }
        let inside = try storage.writeAndWait { ctx -> [Int64?] in
            // A tiny page cache makes SQLite write dirty pages to the WAL before the commit and read them
            // back later in the same transaction: the reads must see what is still buffered.
            try ctx.db.execute("PRAGMA cache_size = 10")
            defer { try? ctx.db.execute("PRAGMA cache_size = -2000") }
            for i in 0..<2000 { try ctx.db.run("INSERT INTO t VALUES (?, zeroblob(900))", [.integer(Int64(i))]) }
            try ctx.db.run("UPDATE t SET b = zeroblob(901) WHERE i % 7 = 0")
            let row = try ctx.db.queryOne("SELECT count(*), sum(length(b)), sum(i) FROM t")
            return [row?[0].int64, row?[1].int64, row?[2].int64]
        }
        let expected: [Int64?] = [2000, 2000 * 900 + 286, 1_999_000]
        XCTAssertEqual(inside, expected)
        let after = try storage.read { db -> [Int64?] in
            let row = try db.queryOne("SELECT count(*), sum(length(b)), sum(i) FROM t")
            return [row?[0].int64, row?[1].int64, row?[2].int64]
        }
        XCTAssertEqual(after, expected)
        XCTAssertEqual(try storage.writeAndWait { try $0.db.queryOne("PRAGMA integrity_check")?[0].string }, "ok")
    }

    func testEveryAcknowledgedCommitIsInTheFilesOnDisk() throws {
        // No checkpoint runs (the interval is far away), so the rows live only in the WAL file. A copy of
        // the database and WAL files taken right after the commits were acknowledged must hold them all:
        // nothing acknowledged may still sit in the buffer.
        let (storage, dir) = try makeStorage(self)
        try storage.writeAndWait { try $0.db.execute("CREATE TABLE t (i INTEGER, s TEXT)") }
        for i in 0..<50 {
            try storage.writeAndWait { try $0.db.run("INSERT INTO t VALUES (?, 'row')", [.integer(Int64(i))]) }
        }
        let copy = dir + "/copy"
        try FileManager.default.createDirectory(atPath: copy, withIntermediateDirectories: true)
        for suffix in ["", "-wal"] {
            try FileManager.default.copyItem(atPath: storage.options.path + suffix, toPath: copy + "/db.sqlite3" + suffix)
        }
        let reopened = try Database(path: copy + "/db.sqlite3")
        defer { reopened.close() }
        XCTAssertEqual(try reopened.queryOne("SELECT count(*), sum(i) FROM t")?[0].int64, 50)
        XCTAssertEqual(try reopened.queryOne("SELECT sum(i) FROM t")?[0].int64, 1225)
    }

    func testOnlyFullAndExtraBufferAndZeroTurnsItOff() throws {
        var options = StorageOptions(path: "/x")
        XCTAssertEqual(options.walWriteBufferBytes, 1 << 20)
        XCTAssertEqual(try WALWriteBuffer.vfsName(for: options), "quartet-wal-1048576")
        options.synchronous = "extra"
        XCTAssertNotNil(try WALWriteBuffer.vfsName(for: options))
        // At NORMAL and OFF SQLite publishes a commit to readers without syncing the WAL first.
        for mode in ["NORMAL", "off"] {
            options.synchronous = mode
            XCTAssertNil(try WALWriteBuffer.vfsName(for: options), mode)
        }
        options.synchronous = "FULL"
        options.walWriteBufferBytes = 0
        XCTAssertNil(try WALWriteBuffer.vfsName(for: options))

        let (normal, _) = try makeStorage(self) { $0.synchronous = "NORMAL" }
        try normal.writeAndWait { try $0.db.execute("CREATE TABLE t (b BLOB)") }
        let writes = try walWrites {
            try normal.writeAndWait { ctx in
                for _ in 0..<20 { try ctx.db.run("INSERT INTO t VALUES (zeroblob(3500))") }
            }
        }
        XCTAssertEqual(writes.sqlite, 0, "a NORMAL connection writes its WAL without the buffer")
    }

    func testBufferSizeIsValidated() {
        for bytes in [1, 4096, (64 << 10) - 1, (1 << 30) + 1] {
            var options = StorageOptions(path: "/tmp/x.sqlite3")
            options.walWriteBufferBytes = bytes
            XCTAssertThrowsError(try options.validate(), "\(bytes)")
        }
        for bytes in [0, 64 << 10, 1 << 20, 1 << 30] {
            var options = StorageOptions(path: "/tmp/x.sqlite3")
            options.walWriteBufferBytes = bytes
            XCTAssertNoThrow(try options.validate(), "\(bytes)")
        }
    }
}
