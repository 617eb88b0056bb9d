import XCTest
import Core
import Storage
@testable import BackbeamAPI

/// The compiled-query cache (`QueryPlanCache`): a repeated shape answers exactly what a fresh compilation
/// answers, the cache is bounded and least-recently-used, and a change of catalogue, index or schema is
/// never answered with texts compiled before it.
final class QueryPlanCacheTests: XCTestCase {
    private func shape(_ entity: String, generation: UInt64 = 0) throws -> QueryShape {
        QueryShape(space: 1, entity: entity, query: try BQLParser.parse("where cat = ?"), hasLimit: true,
                   hasOffset: false, catalogueGeneration: generation)
    }

    func testLeastRecentlyUsedShapeLeavesFirst() throws {
        let cache = QueryPlanCache(capacity: 2)
        cache.put(try shape("a"), CompiledQuery(schema: nil, page: "A", count: "a"))
        cache.put(try shape("b"), CompiledQuery(schema: nil, page: "B", count: "b"))
        XCTAssertEqual(cache.get(try shape("a"))?.page, "A")   // a is now the most recent
        cache.put(try shape("c"), CompiledQuery(schema: nil, page: "C", count: "c"))
        XCTAssertEqual(cache.count, 2)
        XCTAssertNil(cache.get(try shape("b")))
        XCTAssertEqual(cache.get(try shape("a"))?.page, "A")
        XCTAssertEqual(cache.get(try shape("c"))?.count, "c")
        XCTAssertNil(cache.get(try shape("a", generation: 1)), "another catalogue generation")
        cache.removeAll()
        XCTAssertEqual(cache.count, 0)
        let off = QueryPlanCache(capacity: 0)
        off.put(try shape("a"), CompiledQuery(schema: nil, page: "A", count: "a"))
        XCTAssertNil(off.get(try shape("a")))
    }

    /// Every query of one shape, with different values, answers byte for byte what a store without the cache
    /// answers from the same data (page, joined authors, count), and only one shape is kept.
    func testRepeatedShapeAnswersAsAFreshCompilation() throws {
        let f = try BackbeamStoreFixture()
        XCTAssertTrue(try f.store.declareIndex(space: f.space, entity: "place", field: "cat", now: 1))
        var authors: [String] = []
        for i in 0..<4 { authors.append(try f.create("user", [("set-name", "u\(i)")]).id) }
        for i in 0..<60 {
            try f.create("place", [("set-cat", "c\(i % 3)"), ("set-n#n", "\(i)"), ("set-author", authors[i % 4])])
        }
        let uncached = SQLiteBackbeamStore(storage: f.storage, queryPlanCacheSize: 0)
        func body(_ store: SQLiteBackbeamStore, _ q: String, _ params: [String], limit: Int?, offset: Int = 0) throws -> [UInt8] {
            let bound = try BQLBoundQuery.bind(try BQLParser.parse(q), params: params)
            return PageBodies.list(try store.query(QueryRequest(space: f.space, entity: "place", query: bound, limit: limit,
                                                                offset: offset, schema: f.schema)))
        }
        let queries: [(String, [String])] = [("where cat = ? join author", ["c0"]), ("where cat = ? join author", ["c1"]),
                                             ("where cat = ? join author", ["c9"]), ("where n > ? sort by n desc", ["10"]),
                                             ("where n > ? sort by n desc", ["50"])]
        for _ in 0..<2 {
            for (q, params) in queries {
                for (limit, offset) in [(5, 0), (5, 3), (100, 0)] {
                    XCTAssertEqual(String(decoding: try body(f.store, q, params, limit: limit, offset: offset), as: UTF8.self),
                                   String(decoding: try body(uncached, q, params, limit: limit, offset: offset), as: UTF8.self),
                                   "\(q) \(params) limit \(limit) offset \(offset)")
                }
            }
        }
        // Two BQL texts, each with and without an offset.
        XCTAssertEqual(f.store.queryPlans.count, 4)
        XCTAssertEqual(uncached.queryPlans.count, 0)
    }

    /// A text chosen by a value (a collection of ids) is compiled for each query, never kept.
    func testValueDependentTextsAreNotKept() throws {
        let f = try BackbeamStoreFixture()
        let a = try f.create("place", [("set-cat", "x")]).id
        let b = try f.create("place", [("set-cat", "y")]).id
        XCTAssertEqual(try f.query("place", "where this in ?", [a]).ids, [a])
        XCTAssertEqual(try f.query("place", "where this in ?", [a + "\n" + b]).ids.sorted(), [a, b].sorted())
        XCTAssertEqual(f.store.queryPlans.count, 0)
        // A value that matches nothing on a field never written also compiles to no reusable text.
        XCTAssertEqual(try f.query("place", "where missing = ?", ["1"]).count, 0)
        XCTAssertEqual(f.store.queryPlans.count, 0)
    }

    /// A new field, an index declared or dropped and a schema change each make the next query compile again.
    func testCatalogueIndexAndSchemaChangesCompileAgain() throws {
        let f = try BackbeamStoreFixture()
        for i in 0..<10 { try f.create("place", [("set-cat", "c\(i % 2)")]) }
        XCTAssertEqual(try f.query("place", "where cat = ?", ["c0"], limit: 3).count, 5)
        XCTAssertEqual(f.store.queryPlans.count, 1)
        XCTAssertTrue(try f.store.declareIndex(space: f.space, entity: "place", field: "cat", now: 1))
        XCTAssertEqual(f.store.queryPlans.count, 0, "an index declared empties the cache")
        XCTAssertEqual(try f.query("place", "where cat = ?", ["c1"], limit: 3).count, 5)
        XCTAssertEqual(f.store.queryPlans.count, 1)
        // A field written for the first time changes the catalogue: a query on it must see it.
        XCTAssertEqual(try f.query("place", "where other = ?", ["o"], limit: 3).count, 0)
        try f.create("place", [("set-other", "o")])
        XCTAssertEqual(f.store.queryPlans.count, 0, "a new field empties the cache")
        XCTAssertEqual(try f.query("place", "where other = ?", ["o"], limit: 3).count, 1)
        XCTAssertTrue(try f.store.dropIndex(space: f.space, entity: "place", field: "cat"))
        XCTAssertEqual(f.store.queryPlans.count, 0, "an index dropped empties the cache")
        XCTAssertEqual(try f.query("place", "where cat = ?", ["c0"], limit: 3).count, 5)
        // A strict schema without the field refuses the query that was compiled without it.
        f.schema = ProjectSchema(strict: true, entities: ["place": EntitySchema(fields: [:])])
        XCTAssertThrowsError(try f.query("place", "where cat = ?", ["c0"], limit: 3))
    }
}
