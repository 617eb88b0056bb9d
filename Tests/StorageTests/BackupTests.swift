import Core
import Foundation
import XCTest
@testable import Storage

final class BackupTests: XCTestCase {
    func testBackupWhileWritesContinue() throws {
        let (storage, dir) = try makeStorage(self)
        try storage.writeAndWait { ctx in
            try ctx.db.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, payload BLOB)")
            // Enough pages for several backup steps.
            for i in 0..<2000 {
                try ctx.db.run("INSERT INTO t (id, payload) VALUES (?, ?)",
                               [.integer(Int64(i)), .blob([UInt8](repeating: UInt8(i % 256), count: 600))])
            }
        }
        try Migrator.migrate(storage, migrations: [Migration(version: 1, name: "core", sql: """
            CREATE TABLE quartet_blobs (hash TEXT PRIMARY KEY, size INTEGER NOT NULL,
                refcount INTEGER NOT NULL DEFAULT 0, created_at INTEGER NOT NULL, unreferenced_since INTEGER);
            """)])
        let blobs = try BlobStore(directory: dir + "/blobs", storage: storage)
        let blobA = try blobs.store(bytes: Array("first blob".utf8))
        let blobB = try blobs.store(bytes: [UInt8](repeating: 7, count: 200_000))

        // Keep writing from another thread during the backup.
        let stop = Locked(false)
        let writerDone = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            var n: Int64 = 10_000
            while !stop.withLock({ $0 }) {
                let id = n
                _ = try? storage.writeAndWait { try $0.db.run("INSERT INTO t (id) VALUES (?)", [.integer(id)]) }
                n += 1
            }
            writerDone.signal()
        }
        let destination = dir + "/backup"
        var reports: [(Int, Int)] = []
        try Backup.run(databasePath: storage.options.path, blobDirectory: dir + "/blobs",
                       destination: destination) { reports.append(($0, $1)) }
        stop.withLock { $0 = true }
        writerDone.wait()

        XCTAssertGreaterThan(reports.count, 1)
        XCTAssertEqual(reports.last?.0, 0)
        XCTAssertGreaterThan(reports.last?.1 ?? 0, 256)

        // The copy is a self-contained file: open it as a normal database.
        let copy = try Database(path: destination + "/" + Backup.databaseFileName)
        XCTAssertEqual(try copy.queryOne("SELECT count(*) FROM t WHERE id < 2000")?[0], .integer(2000))
        XCTAssertEqual(try copy.queryOne("SELECT length(payload) FROM t WHERE id = 1999")?[0], .integer(600))
        XCTAssertEqual(try copy.queryOne("PRAGMA integrity_check")?[0], .text("ok"))
        copy.close()
        XCTAssertFalse(FileManager.default.fileExists(atPath: destination + "/" + Backup.databaseFileName + "-wal")
                       && (FileIO.fileSize(destination + "/" + Backup.databaseFileName + "-wal") ?? 0) > 0)

        let restoredBlobs = try BlobStore(directory: destination + "/" + Backup.blobFolderName, storage: storage)
        for reference in [blobA, blobB] {
            let path = try XCTUnwrap(restoredBlobs.path(for: reference.hash))
            XCTAssertEqual(FileIO.fileSize(path), reference.size)
        }
    }

    func testRefusesToOverwriteAnExistingBackup() throws {
        let (storage, dir) = try makeStorage(self)
        try storage.writeAndWait { try $0.db.execute("CREATE TABLE t (n)") }
        try Backup.run(databasePath: storage.options.path, blobDirectory: nil, destination: dir + "/b") { _, _ in }
        assertStorageError(try Backup.run(databasePath: storage.options.path, blobDirectory: nil,
                                          destination: dir + "/b") { _, _ in }) {
            if case .ioError(let message) = $0 { return message.contains("already") }
            return false
        }
    }
}
