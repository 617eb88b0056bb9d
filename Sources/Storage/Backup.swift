import CSQLite
import Foundation

/// Online backups: a consistent copy of the database plus the blob files.
public enum Backup {
    /// Pages copied per `sqlite3_backup_step`; small enough for regular progress reports.
    static let pagesPerStep: Int32 = 256
    /// The database file name inside a backup destination.
    public static let databaseFileName = "quartet.sqlite3"
    /// The blob folder name inside a backup destination.
    public static let blobFolderName = "blobs"

    /// Online backup through sqlite3_backup_* (never a raw copy under WAL) + copies the blob directory.
    ///
    /// Writes `<destination>/quartet.sqlite3` (a self-contained file in rollback-journal mode) and, when
    /// `blobDirectory` is given, `<destination>/blobs/ab/cd/<hash>`. The destination must not already hold
    /// a backup. The copy is of one snapshot: the source read transaction stays open for the whole copy,
    /// so concurrent writes neither block it nor force it to restart. `progress` receives (remaining,
    /// total) pages after each step, on the calling thread.
    public static func run(databasePath: String, blobDirectory: String?, destination: String,
                           progress: (_ remaining: Int, _ total: Int) -> Void) throws {
        try FileIO.makeDirectories(destination)
        let target = (destination as NSString).appendingPathComponent(databaseFileName)
        guard FileIO.fileSize(target) == nil else {
            throw StorageError.ioError("backup destination already holds \(target)")
        }
        try copyDatabase(from: databasePath, to: target, progress: progress)
        if let blobDirectory {
            let blobTarget = (destination as NSString).appendingPathComponent(blobFolderName)
            try copyBlobs(from: blobDirectory, to: blobTarget)
        }
        try FileIO.syncDirectory(destination)
    }

    private static func copyDatabase(from source: String, to target: String,
                                     progress: (_ remaining: Int, _ total: Int) -> Void) throws {
        let sourceDB = try Database(path: source, readOnly: true, statementCacheSize: 0)
        defer { sourceDB.close() }
        let targetDB = try openTarget(target)
        // Pin one snapshot of the source for the whole copy (see run).
        try sourceDB.execute("BEGIN")
        defer { try? sourceDB.execute("ROLLBACK") }
        _ = try sourceDB.queryOne("SELECT count(*) FROM sqlite_master")

        guard let backup = sqlite3_backup_init(targetDB.handle, "main", sourceDB.handle, "main") else {
            let error = StorageError.from(code: sqlite3_errcode(targetDB.handle), connection: targetDB.handle)
            targetDB.close()
            throw error
        }
        var stepResult: Int32 = SQLITE_OK
        repeat {
            stepResult = sqlite3_backup_step(backup, pagesPerStep)
            progress(Int(sqlite3_backup_remaining(backup)), Int(sqlite3_backup_pagecount(backup)))
            if stepResult == SQLITE_BUSY || stepResult == SQLITE_LOCKED {
                usleep(10_000)
            }
        } while stepResult == SQLITE_OK || stepResult == SQLITE_BUSY || stepResult == SQLITE_LOCKED
        let finish = sqlite3_backup_finish(backup)
        guard stepResult == SQLITE_DONE, finish == SQLITE_OK else {
            let code = stepResult == SQLITE_DONE ? finish : stepResult
            let error = StorageError.from(code: code, connection: targetDB.handle)
            targetDB.close()
            FileIO.unlinkIfPresent(target)
            throw error
        }
        do {
            // The copied header says WAL; a backup should be one self-contained file.
            try targetDB.execute("PRAGMA journal_mode = DELETE")
            guard try targetDB.queryOne("PRAGMA quick_check")?[0].string == "ok" else {
                throw StorageError.corrupt("backup copy failed its integrity check")
            }
        } catch {
            targetDB.close()
            FileIO.unlinkIfPresent(target)
            throw error
        }
        targetDB.close()
    }

    /// A plain connection for the destination: the Storage pragmas would switch it to WAL.
    private static func openTarget(_ path: String) throws -> TargetConnection {
        var pointer: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let rc = sqlite3_open_v2(path, &pointer, flags, nil)
        guard rc == SQLITE_OK, let handle = pointer else {
            let error = StorageError.from(code: rc, connection: pointer)
            sqlite3_close_v2(pointer)
            throw error
        }
        sqlite3_extended_result_codes(handle, 1)
        return TargetConnection(handle: handle)
    }

    /// Copies `<source>/ab/cd/<hash>` files (not the temp folder), fsyncing each file and directory.
    private static func copyBlobs(from source: String, to target: String) throws {
        try FileIO.makeDirectories(target)
        for first in FileIO.list(source) where first.utf8.count == 2 {
            for second in FileIO.list(source + "/" + first) where second.utf8.count == 2 {
                let from = source + "/" + first + "/" + second
                let to = target + "/" + first + "/" + second
                let names = FileIO.list(from).filter(BlobStore.isValidHash)
                guard !names.isEmpty else { continue }
                try FileIO.makeDirectories(to)
                for name in names {
                    // A blob collected between listing and copying is simply no longer part of the store.
                    guard FileIO.fileSize(from + "/" + name) != nil else { continue }
                    try FileIO.copyFile(from + "/" + name, to: to + "/" + name)
                }
                try FileIO.syncDirectory(to)
            }
        }
    }
}

/// The raw destination connection of a backup (no pragmas, no cache).
private final class TargetConnection {
    let handle: OpaquePointer
    private var closed = false

    init(handle: OpaquePointer) {
        self.handle = handle
    }

    func execute(_ sql: String) throws {
        let rc = sqlite3_exec(handle, sql, nil, nil, nil)
        guard rc == SQLITE_OK else { throw StorageError.from(code: rc, connection: handle) }
    }

    /// First column of the first row as text.
    func queryOne(_ sql: String) throws -> Row? {
        var statement: OpaquePointer?
        let rc = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        guard rc == SQLITE_OK, let statement else { throw StorageError.from(code: rc, connection: handle) }
        let wrapped = Statement(handle: statement, sql: sql)
        return try wrapped.step(connection: handle) ? wrapped.currentRow() : nil
    }

    func close() {
        guard !closed else { return }
        closed = true
        sqlite3_close_v2(handle)
    }

    deinit { close() }
}
