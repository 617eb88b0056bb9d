import XCTest
@testable import Storage

final class StatementCacheTests: XCTestCase {
    func testSameSQLReusesOnePreparedStatement() throws {
        let dir = try makeTemporaryDirectory(self)
        let db = try Database(path: dir + "/db.sqlite3", statementCacheSize: 4)
        let before = db.cachedStatementCount
        for i in 0..<10 {
            XCTAssertEqual(try db.queryOne("SELECT ? + 1", [.integer(Int64(i))])?[0], .integer(Int64(i + 1)))
        }
        XCTAssertEqual(db.cachedStatementCount, before + 1)
        // The statement is the same object each time.
        let first = db.statementCache.statement(for: "SELECT ? + 1")
        _ = try db.queryOne("SELECT ? + 1", [1])
        XCTAssertTrue(first === db.statementCache.statement(for: "SELECT ? + 1"))
    }

    func testLeastRecentlyUsedIsEvicted() throws {
        // Up to 15 bytes: looked up by content.
        try assertEvictsLeastRecentlyUsed("SELECT 1", "SELECT 2", "SELECT 3")
        // Literals longer than 15 bytes: also found by the address of their bytes, which eviction and
        // removeAll must forget as well.
        XCTAssertNotNil(StatementCache.textAddress(of: "SELECT 1 AS first_literal_value"))
        try assertEvictsLeastRecentlyUsed("SELECT 1 AS first_literal_value", "SELECT 2 AS second_literal_value",
                                          "SELECT 3 AS third_literal_value")
    }

    /// Runs `a`, `b`, `a`, `c` on a cache of two: `b` is evicted; `removeAll` then forgets `a` too.
    private func assertEvictsLeastRecentlyUsed(_ a: String, _ b: String, _ c: String,
                                               line: UInt = #line) throws {
        let dir = try makeTemporaryDirectory(self)
        let db = try Database(path: dir + "/db.sqlite3", statementCacheSize: 2)
        db.statementCache.removeAll()
        for sql in [a, b, a, c] { _ = try db.query(sql) }      // a is the most recent when c arrives
        XCTAssertEqual(db.cachedStatementCount, 2, line: line)
        XCTAssertNotNil(db.statementCache.statement(for: a), line: line)
        XCTAssertNil(db.statementCache.statement(for: b), line: line)
        XCTAssertNotNil(db.statementCache.statement(for: c), line: line)
        db.statementCache.removeAll()
        XCTAssertNil(db.statementCache.statement(for: a), line: line)
    }

    func testShortTextHasNoAddressOfItsOwn() {
        // Up to 15 bytes are stored inside the string value; a pointer to them would be to a temporary.
        XCTAssertNil(StatementCache.textAddress(of: "SELECT 1"))
        XCTAssertNil(StatementCache.textAddress(of: String(repeating: "x", count: 15)))
        XCTAssertNotNil(StatementCache.textAddress(of: String(repeating: "x", count: 16)))
    }

    func testBuiltTextsOfEqualLengthNeverAnswerForEachOther() throws {
        // SQL built at run time lives in memory that is freed after the call and reused for the next
        // text, often of the same length. Each must still run its own statement.
        let dir = try makeTemporaryDirectory(self)
        for capacity in [0, 1, 3, 64] {
            let db = try Database(path: dir + "/db-\(capacity).sqlite3", statementCacheSize: capacity)
            for round in 0..<3 {
                for i in 0..<200 {
                    let label = String(repeating: "0", count: 3 - String(i % 150).count) + String(i % 150)
                    let sql = "SELECT 'value-" + label + "' AS v, ? AS r"
                    let row = try db.queryOne(sql, [.integer(Int64(round))])
                    XCTAssertEqual(row?["v"], .text("value-" + label), "capacity \(capacity), i \(i)")
                    XCTAssertEqual(row?["r"], .integer(Int64(round)))
                }
            }
            XCTAssertLessThanOrEqual(db.cachedStatementCount, capacity)
        }
    }

    func testEqualTextBuiltAgainFindsTheCachedStatement() throws {
        let dir = try makeTemporaryDirectory(self)
        let db = try Database(path: dir + "/db.sqlite3", statementCacheSize: 8)
        func built() -> String { ["SELECT ? * 2", "AS doubled_value"].joined(separator: " ") }
        let before = db.cachedStatementCount
        let first = built()
        _ = try db.queryOne(first, [1])
        let cached = db.statementCache.statement(for: first)
        XCTAssertNotNil(cached)
        let again = built()
        XCTAssertNotEqual(StatementCache.textAddress(of: again), StatementCache.textAddress(of: first))
        XCTAssertTrue(db.statementCache.statement(for: again) === cached)
        XCTAssertEqual(try db.queryOne(again, [21])?["doubled_value"], .integer(42))
        XCTAssertEqual(db.cachedStatementCount, before + 1)
    }

    func testNestedUseOfSameSQLDoesNotDisturbOuterStatement() throws {
        let dir = try makeTemporaryDirectory(self)
        let db = try Database(path: dir + "/db.sqlite3")
        try db.execute("CREATE TABLE t (n); INSERT INTO t VALUES (1), (2), (3)")
        var pairs: [[Int64]] = []
        try db.forEach("SELECT n FROM t ORDER BY n") { outer in
            let inner = try db.query("SELECT n FROM t ORDER BY n").compactMap { $0[0].int64 }
            pairs.append([outer[0].int64 ?? -1, Int64(inner.count)])
            return true
        }
        XCTAssertEqual(pairs, [[1, 3], [2, 3], [3, 3]])
    }

    func testBindingsDoNotLeakIntoNextUse() throws {
        let dir = try makeTemporaryDirectory(self)
        let db = try Database(path: dir + "/db.sqlite3")
        XCTAssertEqual(try db.queryOne("SELECT ?", ["first"])?[0], .text("first"))
        XCTAssertEqual(try db.queryOne("SELECT ?", [nil])?[0], .null)
    }
}
