import XCTest
@testable import Storage

final class StorageErrorTests: XCTestCase {
    private func openDatabase() throws -> Database {
        let dir = try makeTemporaryDirectory(self)
        return try Database(path: dir + "/db.sqlite3")
    }

    func testConstraintViolationsAreTyped() throws {
        let db = try openDatabase()
        try db.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE)")
        try db.run("INSERT INTO t (name) VALUES (?)", ["a"])
        assertStorageError(try db.run("INSERT INTO t (name) VALUES (?)", ["a"])) {
            if case .constraint(let message) = $0 { return message.contains("UNIQUE") }
            return false
        }
        assertStorageError(try db.run("INSERT INTO t (name) VALUES (NULL)")) {
            if case .constraint(let message) = $0 { return message.contains("NOT NULL") }
            return false
        }
    }

    func testForeignKeysAreEnforced() throws {
        let db = try openDatabase()
        try db.execute("""
            CREATE TABLE parent (id INTEGER PRIMARY KEY);
            CREATE TABLE child (parent_id INTEGER REFERENCES parent(id));
            """)
        assertStorageError(try db.run("INSERT INTO child VALUES (42)")) {
            if case .constraint(let message) = $0 { return message.contains("FOREIGN KEY") }
            return false
        }
    }

    func testBadSQLIsMisuseWithSQLiteMessage() throws {
        let db = try openDatabase()
        assertStorageError(try db.query("SELEC 1")) {
            if case .misuse(let message) = $0 { return message.contains("syntax error") }
            return false
        }
        assertStorageError(try db.query("SELECT * FROM no_such_table")) {
            if case .misuse(let message) = $0 { return message.contains("no such table") }
            return false
        }
    }

    func testWrongArgumentCountIsMisuse() throws {
        let db = try openDatabase()
        assertStorageError(try db.query("SELECT ?, ?", [1])) {
            if case .misuse = $0 { return true }
            return false
        }
    }

    func testMultipleStatementsInQueryAreRejected() throws {
        let db = try openDatabase()
        try db.execute("CREATE TABLE t (n)")
        assertStorageError(try db.run("INSERT INTO t VALUES (1); INSERT INTO t VALUES (2)")) {
            if case .misuse(let message) = $0 { return message.contains("more than one statement") }
            return false
        }
        XCTAssertEqual(try db.queryOne("SELECT count(*) FROM t")?[0], .integer(0))
        // A trailing semicolon is fine.
        XCTAssertEqual(try db.run("INSERT INTO t VALUES (1);"), 1)
    }

    func testResultCodeMapping() {
        XCTAssertEqual(StorageError.from(code: 5, message: "m"), .busy("m"))
        XCTAssertEqual(StorageError.from(code: 5 | (1 << 8), message: "m"), .busy("m"))   // SQLITE_BUSY_RECOVERY
        XCTAssertEqual(StorageError.from(code: 6, message: "m"), .locked("m"))
        XCTAssertEqual(StorageError.from(code: 19 | (8 << 8), message: "m"), .constraint("m"))
        XCTAssertEqual(StorageError.from(code: 11, message: "m"), .corrupt("m"))
        XCTAssertEqual(StorageError.from(code: 26, message: "m"), .corrupt("m"))
        XCTAssertEqual(StorageError.from(code: 13, message: "m"), .full("m"))
        XCTAssertEqual(StorageError.from(code: 8, message: "m"), .readOnly("m"))
        XCTAssertEqual(StorageError.from(code: 10 | (4 << 8), message: "m"), .ioError("m"))
        XCTAssertEqual(StorageError.from(code: 21, message: "m"), .misuse("m"))
        XCTAssertEqual(StorageError.from(code: 18, message: "m"), .tooBig("m"))
        XCTAssertEqual(StorageError.from(code: 9, message: "m"), .interrupted)
        XCTAssertEqual(StorageError.from(code: 1, message: "m"), .sqlite(code: 1, message: "m"))
    }

    func testWriteOnReaderIsReadOnly() throws {
        let (storage, _) = try makeStorage(self)
        try storage.writeAndWait { try $0.db.execute("CREATE TABLE t (n)") }
        assertStorageError(try storage.read { try $0.run("INSERT INTO t VALUES (1)") }) {
            if case .readOnly = $0 { return true }
            return false
        }
    }
}
