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
        let dir = try makeTemporaryDirectory(self)
        let db = try Database(path: dir + "/db.sqlite3", statementCacheSize: 2)
        db.statementCache.removeAll()
        _ = try db.query("SELECT 1")
        _ = try db.query("SELECT 2")
        _ = try db.query("SELECT 1")      // 1 is now the most recent
        _ = try db.query("SELECT 3")      // evicts 2
        XCTAssertEqual(db.cachedStatementCount, 2)
        XCTAssertNotNil(db.statementCache.statement(for: "SELECT 1"))
        XCTAssertNil(db.statementCache.statement(for: "SELECT 2"))
        XCTAssertNotNil(db.statementCache.statement(for: "SELECT 3"))
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
