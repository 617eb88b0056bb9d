import Core
import Foundation

/// Loads numbered SQL migrations and applies the pending ones.
public enum Migrator {
    /// The table the migrator keeps its history in; created by the migrator itself so that migration 1
    /// can be recorded like any other.
    static let historyDDL = """
        CREATE TABLE IF NOT EXISTS quartet_migrations (
            version INTEGER PRIMARY KEY,
            name TEXT NOT NULL,
            applied_at INTEGER NOT NULL
        )
        """

    /// Reads every `*.sql` file of `directory`: names must be `NNNN_name.sql`, versions 1, 2, 3... with no
    /// gaps or duplicates. Other files (README, hidden files) are ignored. Sorted by version.
    public static func load(directory: String) throws -> [Migration] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory)
        } catch {
            throw StorageError.migration("cannot list migrations directory \(directory): \(error.localizedDescription)")
        }
        var migrations: [Migration] = []
        for fileName in names where fileName.hasSuffix(".sql") && !fileName.hasPrefix(".") {
            guard let parsed = Migration.parseFileName(fileName) else {
                throw StorageError.migration("bad migration file name '\(fileName)' (expected NNNN_name.sql, lowercase name)")
            }
            let path = (directory as NSString).appendingPathComponent(fileName)
            let data = try readScript(path, fileName: fileName)
            guard let sql = String(data: data, encoding: .utf8) else {
                throw StorageError.migration("migration \(fileName) is not valid UTF-8")
            }
            guard !sql.allSatisfy(\.isWhitespace) else {
                throw StorageError.migration("migration \(fileName) is empty")
            }
            migrations.append(Migration(version: parsed.version, name: parsed.name, sql: sql))
        }
        return try validated(migrations)
    }

    /// Largest migration script read. Real scripts are a few kilobytes; the cap keeps a stray huge file,
    /// or a name linked to a device such as /dev/zero, from being read into memory without end.
    static let maxScriptBytes = 16 << 20

    /// The bytes of one script, read up to one byte past `maxScriptBytes` so an oversized file is refused.
    private static func readScript(_ path: String, fileName: String) throws -> Data {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw StorageError.migration("cannot read migration \(path)")
        }
        defer { try? handle.close() }
        let data: Data
        do {
            data = try handle.read(upToCount: maxScriptBytes + 1) ?? Data()
        } catch {
            throw StorageError.migration("cannot read migration \(path)")
        }
        guard data.count <= maxScriptBytes else {
            throw StorageError.migration("migration \(fileName) is larger than \(maxScriptBytes) bytes")
        }
        return data
    }

    /// Sorts by version and rejects duplicates and gaps.
    public static func validated(_ migrations: [Migration]) throws -> [Migration] {
        let sorted = migrations.sorted { ($0.version, $0.name) < ($1.version, $1.name) }
        var expected = 1
        for migration in sorted {
            if migration.version < expected {
                let first = sorted.first { $0.version == migration.version }
                throw StorageError.migration(
                    "duplicate migration number \(migration.version): \(first?.name ?? "?") and \(migration.name)")
            }
            guard migration.version == expected else {
                throw StorageError.migration("migration \(expected) is missing (next is \(migration.version)_\(migration.name))")
            }
            expected += 1
        }
        return sorted
    }

    /// Applies pending ones in order, each in its own transaction, recorded in `quartet_migrations`;
    /// throws StorageError.migration("database has migration N (name) unknown to this binary") when the db is ahead.
    /// Returns the migrations it applied (empty when the database was up to date).
    @discardableResult
    public static func migrate(_ storage: Storage, migrations: [Migration]) throws -> [Migration] {
        let known = try validated(migrations)
        try storage.writeAndWait(solo: true) { context in try context.db.execute(historyDDL) }
        let applied = try appliedMigrations(storage)
        let knownByVersion = Dictionary(known.map { ($0.version, $0) }, uniquingKeysWith: { first, _ in first })
        for (version, name) in applied {
            guard let migration = knownByVersion[version], migration.name == name else {
                throw StorageError.migration("database has migration \(version) (\(name)) unknown to this binary")
            }
        }
        let done = Set(applied.map(\.version))
        var newlyApplied: [Migration] = []
        for migration in known where !done.contains(migration.version) {
            try apply(migration, to: storage)
            newlyApplied.append(migration)
            storage.logger.info("migration applied", metadata: [
                "version": "\(migration.version)", "name": "\(migration.name)",
            ])
        }
        return newlyApplied
    }

    /// (version, name) of every recorded migration, in version order.
    public static func appliedMigrations(_ storage: Storage) throws -> [(version: Int, name: String)] {
        try storage.read { db in
            // A fresh database has no history table until migrate() creates it.
            guard try db.queryOne("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'quartet_migrations'") != nil
            else { return [] }
            return try db.query("SELECT version, name FROM quartet_migrations ORDER BY version").map { row in
                (Int(row["version"].int64 ?? 0), row["name"].string ?? "")
            }
        }
    }

    /// Runs the script and records it in one solo transaction, so a failing script leaves no trace.
    private static func apply(_ migration: Migration, to storage: Storage) throws {
        let now = WallClock.nowMillis()
        do {
            try storage.writeAndWait(solo: true) { context in
                try context.db.execute(migration.sql)
                try context.db.run("INSERT INTO quartet_migrations (version, name, applied_at) VALUES (?, ?, ?)",
                                   [.integer(Int64(migration.version)), .text(migration.name), .integer(now)])
            }
        } catch {
            throw StorageError.migration("migration \(migration.version) (\(migration.name)) failed: \(error)")
        }
    }
}
