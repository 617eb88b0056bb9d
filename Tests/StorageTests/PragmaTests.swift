import Foundation
import XCTest
@testable import Storage

final class PragmaTests: XCTestCase {
    func testWriterPragmasAreInEffect() throws {
        let (storage, _) = try makeStorage(self) { $0.busyTimeoutMilliseconds = 1234 }
        let row = try storage.writeAndWait { ctx -> [SQLValue] in
            [try ctx.db.queryOne("PRAGMA busy_timeout")?[0] ?? .null,
             try ctx.db.queryOne("PRAGMA journal_mode")?[0] ?? .null,
             try ctx.db.queryOne("PRAGMA synchronous")?[0] ?? .null,
             try ctx.db.queryOne("PRAGMA foreign_keys")?[0] ?? .null,
             try ctx.db.queryOne("PRAGMA query_only")?[0] ?? .null]
        }
        // synchronous: 0 OFF, 1 NORMAL, 2 FULL, 3 EXTRA.
        XCTAssertEqual(row, [.integer(1234), .text("wal"), .integer(2), .integer(1), .integer(0)])
    }

    func testReaderPragmasAreInEffect() throws {
        let (storage, _) = try makeStorage(self) { $0.synchronous = "normal" }
        let row = try storage.read { db -> [SQLValue] in
            [try db.queryOne("PRAGMA journal_mode")?[0] ?? .null,
             try db.queryOne("PRAGMA synchronous")?[0] ?? .null,
             try db.queryOne("PRAGMA foreign_keys")?[0] ?? .null,
             try db.queryOne("PRAGMA query_only")?[0] ?? .null]
        }
        XCTAssertEqual(row, [.text("wal"), .integer(1), .integer(1), .integer(1)])
        XCTAssertTrue(try storage.read { $0.isReadOnly })
    }

    func testMmapSizeIsAppliedToEveryConnection() throws {
        let (storage, _) = try makeStorage(self) { $0.mmapSizeBytes = 8 << 20 }
        XCTAssertEqual(try storage.writeAndWait { try $0.db.queryOne("PRAGMA mmap_size")?[0].int64 }, 8 << 20)
        XCTAssertEqual(try storage.read { try $0.queryOne("PRAGMA mmap_size")?[0] }, .integer(8 << 20))
        let (off, _) = try makeStorage(self) { $0.mmapSizeBytes = 0 }
        XCTAssertEqual(try off.read { try $0.queryOne("PRAGMA mmap_size")?[0] }, .integer(0))
        XCTAssertEqual(StorageOptions(path: "/x").mmapSizeBytes, 256 << 20)
    }

    func testWalAutocheckpointIsSetOnTheWriter() throws {
        let (storage, _) = try makeStorage(self)
        XCTAssertEqual(try storage.writeAndWait { try $0.db.queryOne("PRAGMA wal_autocheckpoint")?[0].int64 }, 10_000)
        XCTAssertEqual(StorageOptions(path: "/x").walAutocheckpointPages, 10_000)
        let (small, _) = try makeStorage(self) { $0.walAutocheckpointPages = 3 }
        XCTAssertEqual(try small.writeAndWait { try $0.db.queryOne("PRAGMA wal_autocheckpoint")?[0].int64 }, 3)
        // The writer checkpoints as configured: the WAL restarts from its beginning after a few pages
        // instead of growing with every commit until 10,000 pages.
        func walBytesAfterInserts(_ storage: Storage) throws -> Int {
            try storage.writeAndWait { try $0.db.execute("CREATE TABLE t (b BLOB)") }
            for _ in 0..<40 {
                try storage.writeAndWait { try $0.db.run("INSERT INTO t VALUES (zeroblob(3000))") }
            }
            let attributes = try FileManager.default.attributesOfItem(atPath: storage.options.path + "-wal")
            return (attributes[.size] as? NSNumber)?.intValue ?? -1
        }
        let checkpointed = try walBytesAfterInserts(small)
        let growing = try walBytesAfterInserts(storage)
        XCTAssertGreaterThan(growing, 40 * 4096, "every commit appends at least one page")
        XCTAssertLessThan(checkpointed, 16 * 4096, "automatic checkpoints did not let the WAL restart")
    }

    func testSynchronousModes() throws {
        for (mode, expected) in [("OFF", Int64(0)), ("EXTRA", 3)] {
            let (storage, _) = try makeStorage(self) { $0.synchronous = mode }
            let value = try storage.writeAndWait { try $0.db.queryOne("PRAGMA synchronous")?[0].int64 }
            XCTAssertEqual(value, expected)
        }
    }

    func testInvalidOptionsAreRejected() throws {
        let dir = try makeTemporaryDirectory(self)
        var options = StorageOptions(path: dir + "/x.sqlite3")
        options.synchronous = "SOMETIMES"
        assertStorageError(try Storage(options: options, logger: quietLogger)) {
            if case .misuse(let message) = $0 { return message.contains("synchronous") }
            return false
        }
        options = StorageOptions(path: dir + "/x.sqlite3")
        options.mmapSizeBytes = -1
        assertStorageError(try Storage(options: options, logger: quietLogger)) {
            if case .misuse(let message) = $0 { return message.contains("mmapSizeBytes") }
            return false
        }
        options = StorageOptions(path: dir + "/x.sqlite3")
        options.walAutocheckpointPages = 0
        assertStorageError(try Storage(options: options, logger: quietLogger)) {
            if case .misuse(let message) = $0 { return message.contains("walAutocheckpointPages") }
            return false
        }
        assertStorageError(try Storage(options: StorageOptions(path: ":memory:"), logger: quietLogger)) {
            if case .misuse = $0 { return true }
            return false
        }
    }
}
