import Foundation
import XCTest
@testable import Storage

final class MigratorTests: XCTestCase {
    private func write(_ files: [String: String], in dir: String) throws {
        for (name, text) in files {
            try text.write(toFile: dir + "/" + name, atomically: true, encoding: .utf8)
        }
    }

    func testLoadSortsAndIgnoresNonSQLFiles() throws {
        let dir = try makeTemporaryDirectory(self)
        try write(["0002_second.sql": "CREATE TABLE b (x);", "0001_first.sql": "CREATE TABLE a (x);",
                   "README.md": "notes", ".0003_hidden.sql": "x"], in: dir)
        let migrations = try Migrator.load(directory: dir)
        XCTAssertEqual(migrations.map(\.version), [1, 2])
        XCTAssertEqual(migrations.map(\.name), ["first", "second"])
    }

    func testBadFileNamesAreRejected() throws {
        for bad in ["1_short.sql", "0001-dash.sql", "0001_Upper.sql", "0001_.sql", "00001_five.sql",
                    "abcd_name.sql", "0000_zero.sql", "0001_sp ace.sql"] {
            let dir = try makeTemporaryDirectory(self)
            try write([bad: "SELECT 1;"], in: dir)
            assertStorageError(try Migrator.load(directory: dir)) {
                if case .migration(let message) = $0 { return message.contains("bad migration file name") }
                return false
            }
        }
    }

    func testHugeScriptIsRefusedWithoutReadingItWhole() throws {
        // A sparse 64 GiB file: reading it whole would exhaust memory; only the cap is read.
        let dir = try makeTemporaryDirectory(self)
        let path = dir + "/0001_huge.sql"
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data("SELECT 1;".utf8)))
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: path))
        try handle.truncate(atOffset: 64 << 30)
        try handle.close()
        assertStorageError(try Migrator.load(directory: dir)) {
            if case .migration(let message) = $0 { return message.contains("larger than") }
            return false
        }
    }

    func testDuplicatesAndGapsAreRejected() throws {
        let dupes = try makeTemporaryDirectory(self)
        try write(["0001_a.sql": "SELECT 1;", "0001_b.sql": "SELECT 1;"], in: dupes)
        assertStorageError(try Migrator.load(directory: dupes)) {
            if case .migration(let message) = $0 { return message.contains("duplicate") }
            return false
        }
        let gap = try makeTemporaryDirectory(self)
        try write(["0001_a.sql": "SELECT 1;", "0003_c.sql": "SELECT 1;"], in: gap)
        assertStorageError(try Migrator.load(directory: gap)) {
            if case .migration(let message) = $0 { return message.contains("missing") }
            return false
        }
        let empty = try makeTemporaryDirectory(self)
        try write(["0001_a.sql": "  \n"], in: empty)
        assertStorageError(try Migrator.load(directory: empty)) {
            if case .migration(let message) = $0 { return message.contains("empty") }
            return false
        }
    }

    func testAppliesInOrderRecordsAndIsIdempotent() throws {
        let (storage, _) = try makeStorage(self)
        let migrations = [
            Migration(version: 1, name: "one", sql: "CREATE TABLE a (x); INSERT INTO a VALUES (1);"),
            // Depends on table a from migration 1, so order matters.
            Migration(version: 2, name: "two", sql: "CREATE TABLE b AS SELECT x + 1 AS y FROM a;"),
        ]
        let applied = try Migrator.migrate(storage, migrations: migrations)
        XCTAssertEqual(applied.map(\.version), [1, 2])
        XCTAssertEqual(try storage.read { try $0.queryOne("SELECT y FROM b")?[0] }, .integer(2))
        let history = try storage.read { try $0.query("SELECT version, name, applied_at FROM quartet_migrations ORDER BY version") }
        XCTAssertEqual(history.map { $0["version"] }, [.integer(1), .integer(2)])
        XCTAssertEqual(history.map { $0["name"] }, [.text("one"), .text("two")])
        XCTAssertTrue(history.allSatisfy { ($0["applied_at"].int64 ?? 0) > 0 })

        XCTAssertEqual(try Migrator.migrate(storage, migrations: migrations), [])
        let extended = migrations + [Migration(version: 3, name: "three", sql: "CREATE TABLE c (z);")]
        XCTAssertEqual(try Migrator.migrate(storage, migrations: extended).map(\.version), [3])
    }

    func testFailingMigrationLeavesNoTrace() throws {
        let (storage, _) = try makeStorage(self)
        let migrations = [
            Migration(version: 1, name: "one", sql: "CREATE TABLE a (x);"),
            Migration(version: 2, name: "broken", sql: "CREATE TABLE half (x); INSERT INTO nowhere VALUES (1);"),
        ]
        assertStorageError(try Migrator.migrate(storage, migrations: migrations)) {
            if case .migration(let message) = $0 { return message.contains("migration 2 (broken) failed") }
            return false
        }
        XCTAssertEqual(try Migrator.appliedMigrations(storage).map(\.version), [1])
        XCTAssertNil(try storage.read { try $0.queryOne("SELECT 1 FROM sqlite_master WHERE name = 'half'") })
    }

    func testRefusesDatabaseThatIsAhead() throws {
        let (storage, _) = try makeStorage(self)
        let newer = [Migration(version: 1, name: "one", sql: "CREATE TABLE a (x);"),
                     Migration(version: 2, name: "future", sql: "CREATE TABLE f (x);")]
        try Migrator.migrate(storage, migrations: newer)
        assertStorageError(try Migrator.migrate(storage, migrations: Array(newer.prefix(1)))) {
            $0 == .migration("database has migration 2 (future) unknown to this binary")
        }
    }

    func testCoreMigrationFromRepository() throws {
        let repoMigrations = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Migrations").path
        let migrations = try Migrator.load(directory: repoMigrations)
        XCTAssertEqual(migrations.first?.name, "core")
        let (storage, _) = try makeStorage(self)
        try Migrator.migrate(storage, migrations: migrations)
        let tables = try storage.read {
            try $0.query("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'quartet_%' ORDER BY name")
                .compactMap { $0[0].string }
        }
        for table in ["quartet_admin_users", "quartet_blobs", "quartet_migrations", "quartet_settings"] {
            XCTAssertTrue(tables.contains(table), "missing \(table)")
        }
    }
}
