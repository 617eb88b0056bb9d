import Foundation
import XCTest
import Core
import Storage
@testable import BackbeamAPI

/// Declared indexes (spec §5.6, BB-158): the compiler's expression is the index's, so SQLite uses it.
final class StoreIndexTests: XCTestCase {
    private func plan(_ f: BackbeamStoreFixture, _ q: String, _ params: [String]) throws -> String {
        let bound = try BQLBoundQuery.bind(try BQLParser.parse(q), params: params)
        let catalogue = try f.store.catalogue(space: f.space)
        return try f.storage.read { db -> String in
            let runner = QueryRunner(db: db, catalogue: catalogue,
                                     request: QueryRequest(space: f.space, entity: "place", query: bound, limit: 20))
            let sql = runner.pageSQL(try runner.plan())
            // A fresh text each time: a cached EXPLAIN never runs its program, so it would not notice that the
            // schema changed and would repeat the plan it was prepared with.
            return try db.query("EXPLAIN QUERY PLAN /* \(UUID().uuidString) */ " + sql.text, sql.args).compactMap { $0["detail"].string }
                .joined(separator: "\n")
        }
    }

    func testWhereOnADeclaredFieldUsesItsIndex() throws {
        let f = try BackbeamStoreFixture()
        XCTAssertTrue(try f.store.declareIndex(space: f.space, entity: "place", field: "cat", now: 1))
        XCTAssertFalse(try f.store.declareIndex(space: f.space, entity: "place", field: "cat", now: 2))
        for i in 0..<50 { try f.create("place", [("set-cat", "c\(i % 5)"), ("set-other", "o\(i % 5)")]) }
        let indexed = try plan(f, "where cat=?", ["c1"])
        XCTAssertTrue(indexed.contains("bb_ix_"), indexed)
        XCTAssertFalse(indexed.contains("TEMP B-TREE"), "the index gives the default order: \(indexed)")
        let unindexed = try plan(f, "where other=?", ["o1"])
        XCTAssertFalse(unindexed.contains("bb_ix_"), unindexed)
        XCTAssertEqual(try f.query("place", "where cat=?", ["c1"]).count, 10)
        XCTAssertEqual(try f.store.indexes(space: f.space).map(\.field), ["cat"])
        XCTAssertTrue(try f.store.dropIndex(space: f.space, entity: "place", field: "cat"))
        let after = try plan(f, "where cat=?", ["c1"])
        XCTAssertFalse(after.contains("bb_ix_"), after)
    }

    func testAnIndexDeclaredBeforeAnyValueCoversLaterValues() throws {
        let f = try BackbeamStoreFixture()
        XCTAssertTrue(try f.store.declareIndex(space: f.space, entity: "place", field: "cat", now: 1))
        try f.create("place", [("set-cat", "7")])
        XCTAssertTrue(try plan(f, "where cat=?", ["7"]).contains("bb_ix_"))
        XCTAssertEqual(try f.query("place", "where cat=?", ["7"]).count, 1)
    }
}
