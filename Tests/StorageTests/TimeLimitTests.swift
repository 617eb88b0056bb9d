import XCTest
import Logging
@testable import Storage

final class TimeLimitTests: XCTestCase {
    func testLongStatementIsInterruptedAtTheDeadline() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("limit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let storage = try Storage(options: StorageOptions(path: dir.appendingPathComponent("l.sqlite3").path),
                                  logger: Logger(label: "test"))
        defer { storage.close() }
        // A recursive CTE counting to a billion takes far longer than the limit.
        let sql = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 1000000000) SELECT count(*) AS n FROM c"
        let start = Date()
        XCTAssertThrowsError(try storage.read { db in try db.withTimeLimit(seconds: 0.05) { try db.query(sql) } }) { error in
            XCTAssertEqual(error as? StorageError, .interrupted)
        }
        XCTAssertLessThan(Date().timeIntervalSince(start), 5)
        // The handler is removed afterwards: the same connection runs ordinary statements again.
        let n = try storage.read { db in try db.queryOne("SELECT 41 + 1 AS n")?["n"].int64 }
        XCTAssertEqual(n, 42)
        let quick = try storage.read { db in try db.withTimeLimit(seconds: 5) { try db.queryOne("SELECT 7 AS n")?["n"].int64 } }
        XCTAssertEqual(quick, 7)
    }
}
