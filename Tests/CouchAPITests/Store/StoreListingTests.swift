import XCTest
import Core
import Storage
@testable import CouchAPI

/// The id indexes (`_all_docs`, `_design_docs`, `_local_docs`), `_bulk_docs` jobs and `_purge` through the
/// SQLite store.
final class StoreListingTests: XCTestCase {
    private var fixture: StoreFixture!

    override func setUpWithError() throws {
        fixture = try StoreFixture(self)
        XCTAssertTrue(try fixture.store.createDatabase(name: "db", createdMicros: 1))
    }

    private func list(_ query: DocumentListQuery) throws -> [DocumentListRow] {
        try fixture.store.read { reader in
            guard let db = try reader.database(named: "db") else { return [] }
            return try reader.documentList(databaseID: db.id, query)
        }
    }

    private func count(_ index: DocumentIndex, _ range: KeyRange = KeyRange()) throws -> Int64 {
        try fixture.store.read { reader in
            guard let db = try reader.database(named: "db") else { return -1 }
            return try reader.documentCount(databaseID: db.id, index: index, range: range)
        }
    }

    private func bulk(_ edits: [BulkEdit]) throws -> [EditOutcome] {
        let done = DispatchSemaphore(value: 0)
        let box = ResultBox<[EditOutcome]>()
        fixture.store.apply(database: "db", bulk: edits) { result in
            box.set(result)
            done.signal()
        }
        done.wait()
        return try box.get()
    }

    private func purge(_ requests: [PurgeRequest]) throws -> PurgeResult {
        let done = DispatchSemaphore(value: 0)
        let box = ResultBox<PurgeResult>()
        fixture.store.purge(database: "db", requests: requests) { result in
            box.set(result)
            done.signal()
        }
        done.wait()
        return try box.get()
    }

    func testIndexesListInByteOrderWithRangesAndPages() throws {
        for id in ["é", "b", "_design/x", "B", "a", "c"] { _ = try fixture.put("db", id, "{}") }
        let deleted = fixture.revision(try fixture.put("db", "gone", "{}"))
        _ = try fixture.put("db", "gone", #"{"_deleted":true}"#, rev: deleted)
        XCTAssertEqual(try list(DocumentListQuery(index: .all)).map(\.id), ["B", "_design/x", "a", "b", "c", "é"])
        XCTAssertEqual(try list(DocumentListQuery(index: .design)).map(\.id), ["_design/x"])
        var query = DocumentListQuery(index: .all)
        query.range = KeyRange(low: KeyBound("a", inclusive: true), high: KeyBound("c", inclusive: false))
        XCTAssertEqual(try list(query).map(\.id), ["a", "b"])
        query.descending = true
        query.skip = 1
        XCTAssertEqual(try list(query).map(\.id), ["a"])
        query = DocumentListQuery(index: .all)
        query.limit = 2
        query.includeDocuments = true
        let rows = try list(query)
        XCTAssertEqual(rows.map(\.id), ["B", "_design/x"])
        XCTAssertEqual(rows.first.flatMap(\.body).map { String(decoding: $0, as: UTF8.self) }, "{}")
        XCTAssertNotNil(rows.first?.tree)
        XCTAssertNil(try list(DocumentListQuery(index: .all)).first?.body)
        XCTAssertEqual(try count(.all), 6)
        XCTAssertEqual(try count(.design), 1)
        XCTAssertEqual(try count(.all, KeyRange(high: KeyBound("a", inclusive: false))), 2)
    }

    func testBulkJobsWriteLocalDocumentsInTheSameJob() throws {
        let outcomes = try bulk([
            .document(try Edits.interactive("a", #"{"v":1}"#)),
            .local(id: "_local/l", rev: 1, body: Array(#"{"n":1}"#.utf8)),
            .document(try Edits.interactive("a", #"{"v":2}"#)),
            .local(id: "_local/none", rev: 0, body: nil),
        ])
        XCTAssertEqual(fixture.revision(outcomes[1]), "0-1")
        XCTAssertEqual(outcomes[2], .failed(.conflict))
        XCTAssertEqual(outcomes[3], .failed(.missing))
        let local = try list(DocumentListQuery(index: .local))
        XCTAssertEqual(local.map(\.id), ["_local/l"])
        XCTAssertEqual(local.map(\.rev), ["0-1"])
        let db = try XCTUnwrap(fixture.database("db"))
        XCTAssertEqual(db.updateSeq, 1)
        XCTAssertEqual(db.docCount, 1)
        XCTAssertEqual(fixture.revision(try bulk([.local(id: "_local/l", rev: 0, body: nil)])[0]), "0-0")
        XCTAssertEqual(try count(.local), 0)
    }

    func testPurgeRemovesLeavesUpdatesCountsAndWinners() throws {
        let x = T.hex("1"), a = T.hex("a"), f = T.hex("f")
        _ = try fixture.apply("db", [try Edits.replicated("c", #"{"_revisions":{"start":2,"ids":["\#(a)","\#(x)"]},"v":"a"}"#),
                                     try Edits.replicated("c", #"{"_revisions":{"start":2,"ids":["\#(f)","\#(x)"]},"v":"f"}"#)])
        let plain = fixture.revision(try fixture.put("db", "p", "{}"))
        let result = try purge([PurgeRequest(id: "c", revs: [try T.rev("2-\(f)")]),
                                PurgeRequest(id: "p", revs: [try T.rev(plain)]),
                                PurgeRequest(id: "none", revs: [try T.rev("1-\(a)")])])
        XCTAssertEqual(result.purgeSeq, 1)
        XCTAssertEqual(result.purged.map { T.texts($0.revs) }, [["2-\(f)"], [plain], []])
        guard case .found(let winner) = try fixture.winner("db", "c") else { return XCTFail("no winner") }
        XCTAssertEqual(winner.0, "2-\(a)")
        XCTAssertEqual(winner.2, #"{"v":"a"}"#)
        XCTAssertNil(try fixture.document("db", "p"))
        let db = try XCTUnwrap(fixture.database("db"))
        XCTAssertEqual(db.docCount, 1)
        XCTAssertEqual(db.updateSeq, 4)
        XCTAssertEqual(db.purgeSeq, 1)
        XCTAssertEqual(try purge([PurgeRequest(id: "c", revs: [try T.rev("1-\(x)")])]).purgeSeq, 1)
    }
}
