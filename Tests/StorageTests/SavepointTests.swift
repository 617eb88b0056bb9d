import XCTest
@testable import Storage

final class SavepointTests: XCTestCase {
    private struct Boom: Error {}

    private func openDatabase() throws -> Database {
        let dir = try makeTemporaryDirectory(self)
        let db = try Database(path: dir + "/db.sqlite3")
        try db.execute("CREATE TABLE t (n)")
        return db
    }

    private func values(_ db: Database) throws -> [Int64] {
        try db.query("SELECT n FROM t ORDER BY n").compactMap { $0[0].int64 }
    }

    func testReleaseKeepsChanges() throws {
        let db = try openDatabase()
        let result = try db.savepoint { () -> Int in
            try db.run("INSERT INTO t VALUES (1)")
            return 7
        }
        XCTAssertEqual(result, 7)
        XCTAssertEqual(try values(db), [1])
        XCTAssertFalse(db.isInTransaction)
    }

    func testInnerFailureRollsBackOnlyInner() throws {
        let db = try openDatabase()
        try db.savepoint("outer") {
            try db.run("INSERT INTO t VALUES (1)")
            XCTAssertThrowsError(try db.savepoint("outer") {   // same name: still unique internally
                try db.run("INSERT INTO t VALUES (2)")
                throw Boom()
            })
            try db.savepoint("inner") { try db.run("INSERT INTO t VALUES (3)") }
        }
        XCTAssertEqual(try values(db), [1, 3])
    }

    func testOuterFailureRollsBackEverything() throws {
        let db = try openDatabase()
        XCTAssertThrowsError(try db.savepoint {
            try db.run("INSERT INTO t VALUES (1)")
            try db.savepoint { try db.run("INSERT INTO t VALUES (2)") }
            throw Boom()
        }) { XCTAssertTrue($0 is Boom) }
        XCTAssertEqual(try values(db), [])
        XCTAssertFalse(db.isInTransaction)
    }

    func testHostileNameCannotInjectSQL() throws {
        let db = try openDatabase()
        try db.savepoint("x; DROP TABLE t; --") { try db.run("INSERT INTO t VALUES (1)") }
        XCTAssertEqual(try values(db), [1])
    }
}
