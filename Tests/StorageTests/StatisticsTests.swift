import XCTest
import Logging
@testable import Storage

final class StatisticsTests: XCTestCase {
    func testRefreshStatisticsLetsThePlannerPreferTheSelectiveIndex() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("stats-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let storage = try Storage(options: StorageOptions(path: dir.appendingPathComponent("s.sqlite3").path),
                                  logger: Logger(label: "test"))
        defer { storage.close() }
        try storage.writeAndWait { ctx in
            try ctx.db.execute("""
                CREATE TABLE t(seq INTEGER PRIMARY KEY, class TEXT NOT NULL, created TEXT, data TEXT NOT NULL);
                CREATE INDEX t_class_created ON t(class, created);
                """)
            for i in 0..<5000 {
                try ctx.db.run("INSERT INTO t(class, created, data) VALUES('A', ?, json_object('r', ?))",
                               [.text(String(i)), .integer(Int64(i))])
            }
            try ctx.db.execute("CREATE INDEX t_r ON t(json_extract(data, '$.r')) WHERE class = 'A'")
        }
        let sql = "EXPLAIN QUERY PLAN SELECT seq FROM t WHERE class = ? AND json_extract(data, '$.r') >= ? "
            + "ORDER BY json_extract(data, '$.r') LIMIT 20"
        func plan() throws -> String {
            try storage.read { db in try db.query(sql, [.text("A"), .integer(4990)]).map { $0["detail"].string ?? "" } }
                .joined(separator: "; ")
        }
        XCTAssertFalse(try plan().contains("USING INDEX t_r"), "without statistics the class index wins")
        try storage.refreshStatistics()
        let after = try plan()
        XCTAssertTrue(after.contains("USING INDEX t_r"), after)
        let stats = try storage.read { db in try db.query("SELECT count(*) AS n FROM sqlite_stat1") }
        XCTAssertGreaterThan(stats.first?["n"].int64 ?? 0, 0)
    }
}
