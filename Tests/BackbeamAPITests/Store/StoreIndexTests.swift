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

    /// The count of a query on an indexed field leaves out the space and entity terms (see
    /// `QueryRunner.selectsOwnEntity`): it must still count only the queried entity's objects of this space,
    /// while another entity and another environment hold objects with the same values under their own
    /// `cat` fields, indexed as well.
    func testCountsOnAnIndexedFieldStayWithinTheEntityAndSpace() throws {
        let f = try BackbeamStoreFixture()
        let other = try f.store.space(project: "demo", env: .pro, create: true) ?? SpaceID(0)
        XCTAssertNotEqual(other, f.space)
        for (space, entity) in [(f.space, "place"), (f.space, "shop"), (other, "place")] {
            XCTAssertTrue(try f.store.declareIndex(space: space, entity: entity, field: "cat", now: 1))
        }
        for i in 0..<30 { try f.create("place", [("set-cat", "c\(i % 3)"), ("set-other", "o\(i % 3)")]) }
        for i in 0..<40 { try f.create("shop", [("set-cat", "c\(i % 2)")]) }
        for i in 0..<50 {
            let set = try CommandParser.parse(BackbeamParameters(scalars: [("set-cat", "c\(i % 5)")]), entity: "place")
            _ = try f.store.create(WriteRequest(space: other, entity: "place", commands: set, schema: nil, now: f.tick()))
        }
        // Pages of 2 so that the count is a statement of its own.
        func count(_ q: String, _ params: [String]) throws -> Int { try f.query("place", q, params, limit: 2).count }
        XCTAssertEqual(try count("where cat=?", ["c1"]), 10)
        XCTAssertEqual(try count("where cat>=?", ["c1"]), 20)
        XCTAssertEqual(try count("where cat=? or cat=?", ["c0", "c1"]), 20)
        XCTAssertEqual(try count("where cat=? and other=?", ["c1", "o1"]), 10)
        XCTAssertEqual(try count("where cat=? or other=?", ["c0", "o1"]), 20, "an unindexed side keeps the terms")
        XCTAssertEqual(try count("where other=?", ["o2"]), 10)
        XCTAssertEqual(try count("where cat=?", ["c4"]), 0)
        XCTAssertEqual(try f.query("shop", "where cat=?", ["c1"], limit: 2).count, 20)
    }
}
