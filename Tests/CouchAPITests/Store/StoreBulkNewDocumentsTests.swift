import XCTest
import Core
import Storage
@testable import CouchAPI

/// Replicated `_bulk_docs` runs of new documents go in with multi-row statements
/// (`EditJob+NewDocuments.swift`); a database written that way must be exactly the database the same
/// edits make one document at a time: trees, sequence numbers, winners, revision rows and counters.
final class StoreBulkNewDocumentsTests: XCTestCase {
    private var fixture: StoreFixture!

    override func setUpWithError() throws {
        fixture = try StoreFixture(self)
        for name in ["batched", "single"] {
            XCTAssertTrue(try fixture.store.createDatabase(name: name, createdMicros: 1))
            // Stemming applies to the batched trees too: paths longer than this lose their oldest revisions.
            XCTAssertTrue(try fixture.store.setRevsLimit(database: name, limit: 4))
        }
    }

    private func bulk(_ database: String, _ edits: [BulkEdit]) throws -> [EditOutcome] {
        let done = DispatchSemaphore(value: 0)
        let box = ResultBox<[EditOutcome]>()
        fixture.store.apply(database: database, bulk: edits) { result in
            box.set(result)
            done.signal()
        }
        done.wait()
        return try box.get()
    }

    /// A replicated edit of `id` with a path of `length` revisions (digest ids, a text id every seventh).
    private func edit(_ id: String, _ n: Int, length: Int = 3, deleted: Bool = false) throws -> DocumentEdit {
        let ids = (0..<length).map { k in
            (n + k) % 7 == 0 ? "t\(n)x\(k)" : String(format: "%08x%08x%08x%08x", n, k, n &* 31, k &+ 7)
        }
        let json = #"{"_revisions":{"start":\#(length + 1),"ids":[\#(ids.map { "\"\($0)\"" }.joined(separator: ","))]},"#
            + #""_deleted":\#(deleted),"n":\#(n),"pad":"\#(String(repeating: "p", count: n % 5))"}"#
        return try Edits.replicated(id, json)
    }

    /// Everything a write leaves in one database, for comparing two.
    private func snapshot(_ database: String, ids: [String]) throws -> String {
        try fixture.store.read { reader in
            guard let db = try reader.database(named: database) else { return "missing" }
            var lines = ["seq \(db.updateSeq) docs \(db.docCount) deleted \(db.docDelCount) external \(db.externalSize) active \(db.activeSize)"]
            for id in Set(ids).sorted() {
                guard let doc = try reader.document(databaseID: db.id, id: id) else {
                    lines.append("\(id) absent")
                    continue
                }
                var line = "\(id) seq \(doc.seq) tree \(doc.tree.encoded()) body \(String(decoding: doc.winnerBody, as: UTF8.self))"
                for node in doc.tree.nodes where node.hasBody {
                    let stored = try reader.revision(documentRowID: doc.rowID, rev: node.rev)
                    line += " \(node.rev) \(stored?.deleted == true) \(stored.map { String(decoding: $0.body, as: UTF8.self) } ?? "none")"
                }
                lines.append(line)
            }
            return lines.joined(separator: "\n")
        }
    }

    func testRunsOfNewDocumentsMatchOneAtATime() throws {
        // 64 + 16 + 4 rows in batches, the last one alone; paths of 1 to 6 revisions, some tombstones.
        var edits: [DocumentEdit] = []
        for n in 0..<85 { edits.append(try edit("doc\(n)", n, length: 1 + n % 6, deleted: n % 9 == 4)) }
        let batched = try bulk("batched", edits.map(BulkEdit.document))
        let single = try fixture.apply("single", edits)
        XCTAssertEqual(batched, single)
        XCTAssertEqual(batched.count, 85)
        XCTAssertEqual(try fixture.database("batched")?.updateSeq, 85)
        XCTAssertEqual(try snapshot("batched", ids: edits.map(\.id)), try snapshot("single", ids: edits.map(\.id)))
    }

    func testAStoredOrRepeatedIdFallsBackWithoutGaps() throws {
        var first: [DocumentEdit] = []
        for n in 0..<5 { first.append(try edit("old\(n)", 100 + n)) }
        XCTAssertEqual(try bulk("batched", first.map(BulkEdit.document)), try fixture.apply("single", first))
        // A run with a stored document (a new branch of it), the same revision of a stored one (no change),
        // and an id twice: the batch insert fails, and every element is applied in order, one at a time.
        var second: [DocumentEdit] = []
        for n in 0..<40 { second.append(try edit("new\(n)", 200 + n)) }
        second.insert(try edit("old1", 300), at: 7)
        second.insert(first[2], at: 12)
        second.insert(try edit("new3", 400), at: 30)
        let batched = try bulk("batched", second.map(BulkEdit.document))
        let single = try fixture.apply("single", second)
        XCTAssertEqual(batched, single)
        XCTAssertEqual(batched.count, 43)
        let ids = (first + second).map(\.id)
        XCTAssertEqual(try snapshot("batched", ids: ids), try snapshot("single", ids: ids))
        // 5 + 40 new documents, a new branch of old1, another of new3; first[2] again changes nothing.
        XCTAssertEqual(try fixture.database("batched")?.updateSeq, 47)
        // Later runs in a job that fell back go one at a time too; a new job batches again.
        var third: [DocumentEdit] = []
        for n in 0..<20 { third.append(try edit("next\(n)", 500 + n)) }
        XCTAssertEqual(try bulk("batched", third.map(BulkEdit.document)), try fixture.apply("single", third))
        XCTAssertEqual(try snapshot("batched", ids: ids + third.map(\.id)), try snapshot("single", ids: ids + third.map(\.id)))
    }

    func testLocalDocumentsAndAttachmentsEndARun() throws {
        var elements: [BulkEdit] = []
        for n in 0..<10 { elements.append(.document(try edit("a\(n)", n))) }
        elements.append(.local(id: "_local/x", rev: 1, body: Array("{}".utf8)))
        for n in 10..<30 { elements.append(.document(try edit("a\(n)", n))) }
        let outcomes = try bulk("batched", elements)
        XCTAssertEqual(outcomes.count, 31)
        XCTAssertEqual(try fixture.database("batched")?.updateSeq, 30)
        let edits = elements.compactMap { element -> DocumentEdit? in
            if case .document(let edit) = element { return edit }
            return nil
        }
        XCTAssertEqual(try fixture.apply("single", edits).count, 30)
        XCTAssertEqual(try snapshot("batched", ids: edits.map(\.id)), try snapshot("single", ids: edits.map(\.id)))
    }
}
