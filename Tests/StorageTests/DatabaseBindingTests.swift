import XCTest
@testable import Storage

final class DatabaseBindingTests: XCTestCase {
    private func openDatabase() throws -> Database {
        let dir = try makeTemporaryDirectory(self)
        return try Database(path: dir + "/db.sqlite3")
    }

    func testEveryValueTypeRoundTrips() throws {
        let db = try openDatabase()
        try db.execute("CREATE TABLE t (v)")
        let values: [SQLValue] = [
            .null, .integer(0), .integer(Int64.max), .integer(Int64.min), .real(3.25), .real(-0.5),
            .text(""), .text("héllo ✓"), .text("a\u{0}b"), .blob([]), .blob([0, 255, 1, 0]),
        ]
        for value in values {
            try db.run("INSERT INTO t (v) VALUES (?)", [value])
        }
        let read = try db.query("SELECT v FROM t ORDER BY rowid").map { $0["v"] }
        XCTAssertEqual(read, values)
    }

    /// Texts and blobs are bound from one buffer per statement: each keeps its own bytes (empty ones
    /// included), also many in one statement, and a cached statement run again binds the new values.
    func testTextsAndBlobsOfOneStatementKeepTheirOwnBytes() throws {
        let db = try openDatabase()
        try db.execute("CREATE TABLE t (a, b, c, d, e, f)")
        let rows: [[SQLValue]] = [
            [.text("first"), .blob([1, 2, 3]), .text(""), .blob([]), .text("ünï"), .integer(7)],
            [.text(String(repeating: "x", count: 5000)), .blob([9]), .text("z"), .blob(Array(repeating: 0xAB, count: 300)),
             .text(""), .null],
        ]
        for row in rows { try db.run("INSERT INTO t VALUES (?, ?, ?, ?, ?, ?)", row) }
        XCTAssertEqual(try db.query("SELECT a, b, c, d, e, f FROM t ORDER BY rowid").map(\.values), rows)
        try db.run("DELETE FROM t")
        try db.run("INSERT INTO t VALUES (?, ?, ?, ?, ?, ?), (?, ?, ?, ?, ?, ?)", rows[1] + rows[0])
        XCTAssertEqual(try db.query("SELECT a, b, c, d, e, f FROM t ORDER BY rowid").map(\.values), [rows[1], rows[0]])
        XCTAssertEqual(try db.queryOne("SELECT count(*) FROM t WHERE a = ? AND b = ?", [.text("first"), .blob([1, 2, 3])])?.values,
                       [.integer(1)])
    }

    func testConvertiblesBindAsTheirStorageClass() throws {
        let db = try openDatabase()
        let row = try db.queryOne("SELECT typeof(?), typeof(?), typeof(?), typeof(?), typeof(?)",
                                  [5.sqlValue, 1.5.sqlValue, "x".sqlValue, [UInt8]([1]).sqlValue, Optional<Int>.none.sqlValue])
        XCTAssertEqual(row?.values, [.text("integer"), .text("real"), .text("text"), .text("blob"), .text("null")])
    }

    func testRunReturnsChangesAndLastInsertRowID() throws {
        let db = try openDatabase()
        try db.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, n INTEGER); INSERT INTO t (n) VALUES (1), (2), (3)")
        XCTAssertEqual(db.lastInsertRowID, 3)
        XCTAssertEqual(try db.run("UPDATE t SET n = n + 1 WHERE n >= ?", [2]), 2)
        try db.run("INSERT INTO t (n) VALUES (?)", [10])
        XCTAssertEqual(db.lastInsertRowID, 4)
    }

    func testForEachStopsWhenBodyReturnsFalse() throws {
        let db = try openDatabase()
        try db.execute("CREATE TABLE t (n); INSERT INTO t VALUES (1), (2), (3)")
        var seen: [Int64] = []
        try db.forEach("SELECT n FROM t ORDER BY n") { row in
            seen.append(row[0].int64 ?? -1)
            return seen.count < 2
        }
        XCTAssertEqual(seen, [1, 2])
    }

    func testQueryOneAndColumnNames() throws {
        let db = try openDatabase()
        XCTAssertNil(try db.queryOne("SELECT 1 WHERE 0"))
        let row = try db.queryOne("SELECT 1 AS one, 'x' AS two")
        XCTAssertEqual(row?.columns, ["one", "two"])
        XCTAssertEqual(row?["two"], .text("x"))
    }

    func testClosedConnectionThrows() throws {
        let db = try openDatabase()
        db.close()
        assertStorageError(try db.query("SELECT 1")) { $0 == .closed }
        assertStorageError(try db.execute("SELECT 1")) { $0 == .closed }
    }
}
