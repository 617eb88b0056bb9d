import XCTest
import Core
import Storage
@testable import CouchAPI

/// Attachment metadata per revision, blob references, stubs and compaction.
final class StoreAttachmentTests: XCTestCase {
    private var fixture: StoreFixture!

    override func setUpWithError() throws {
        fixture = try StoreFixture(self)
        XCTAssertTrue(try fixture.store.createDatabase(name: "db", createdMicros: 1))
    }

    /// Stores `text` as a blob and describes it as an attachment.
    private func attachment(_ name: String, _ text: String, type: String = "application/octet-stream") throws -> AttachmentInput {
        let bytes = Array(text.utf8)
        let blob = try fixture.blobs.store(bytes: bytes)
        return .data(StoredAttachment(name: name, contentType: type, length: Int64(bytes.count),
                                      digest: AttachmentDigest.string(md5: Crypto.md5(bytes)), revpos: 0,
                                      blobHash: blob.hash), keepRevpos: false)
    }

    private func references(_ text: String) throws -> Int? {
        try fixture.blobs.referenceCount(Hex.encode(Crypto.sha256(Array(text.utf8))))
    }

    func testInlineAttachmentsGiveTheCouchDBRevisionsOfD13AndD14() throws {
        let d13 = try fixture.apply("db", [Edits.interactive("d13", "{}", attachments: [attachment("a.bin", "hello")])])
        XCTAssertEqual(d13, [.ok(try T.rev("1-8c161e6ebc477eb9060fcacc36b6c836"))])
        let d14 = try fixture.apply("db", [Edits.interactive("d14", "{}", attachments: [attachment("a.bin", "hello"),
                                                                                        attachment("b.bin", "world")])])
        XCTAssertEqual(d14, [.ok(try T.rev("1-75daf6658caf6b0303131d0883a9110b"))])
        guard case .found(let winner) = try fixture.winner("db", "d14") else { return XCTFail("no row") }
        XCTAssertEqual(winner.3, #"{"a.bin":{"content_type":"application/octet-stream","revpos":1,"digest":"md5-XUFAKrxLKna5cZ2REBfFkg==","length":5,"stub":true},"b.bin":{"content_type":"application/octet-stream","revpos":1,"digest":"md5-fXkwN6B2AYZXSwKC8vQ15w==","length":5,"stub":true}}"#)
        XCTAssertEqual(try references("hello"), 2)
    }

    func testStubsKeepTheParentsAttachmentAndUnknownStubsAreMissing() throws {
        let r1 = fixture.revision(try fixture.apply("db", [Edits.interactive("d", "{}", attachments: [attachment("a.txt", "hello", type: "text/plain")])])[0])
        let r2 = fixture.revision(try fixture.apply("db", [Edits.interactive("d", #"{"v":2}"#, rev: r1,
                                                                              attachments: [.stub(name: "a.txt", revpos: 1)])])[0])
        let doc = try XCTUnwrap(fixture.document("db", "d"))
        let stored = try fixture.store.read { try $0.revision(documentRowID: doc.rowID, rev: try T.rev(r2)) }
        XCTAssertEqual(stored?.attachments.map(\.revpos), [1])
        XCTAssertEqual(stored?.attachments.map(\.digest), ["md5-XUFAKrxLKna5cZ2REBfFkg=="])
        XCTAssertEqual(try references("hello"), 2)
        let missing = try fixture.apply("db", [Edits.interactive("d", "{}", rev: r2, attachments: [.stub(name: "nosuch", revpos: nil)])])
        XCTAssertEqual(missing, [.failed(.missingStub(docID: "d", name: "nosuch"))])
        let wrongRevpos = try fixture.apply("db", [Edits.interactive("d", "{}", rev: r2, attachments: [.stub(name: "a.txt", revpos: 2)])])
        XCTAssertEqual(wrongRevpos, [.failed(.missingStub(docID: "d", name: "a.txt"))])
        let onNew = try fixture.apply("db", [Edits.interactive("new", "{}", attachments: [.stub(name: "a.txt", revpos: nil)])])
        XCTAssertEqual(onNew, [.failed(.missingStub(docID: "new", name: "a.txt"))])
    }

    func testCompactionDropsOldBodiesAndReleasesTheirBlobsButKeepsTheSequence() throws {
        let r1 = fixture.revision(try fixture.apply("db", [Edits.interactive("d", #"{"v":1}"#, attachments: [attachment("a", "old bytes")])])[0])
        let r2 = fixture.revision(try fixture.put("db", "d", #"{"v":2}"#, rev: r1))
        _ = fixture.revision(try fixture.put("db", "d", #"{"v":3}"#, rev: r2))
        XCTAssertEqual(try references("old bytes"), 1)
        let before = try XCTUnwrap(fixture.database("db"))
        XCTAssertTrue(try fixture.store.compact(database: "db"))
        XCTAssertFalse(try fixture.store.compact(database: "nosuch"))
        let after = try XCTUnwrap(fixture.database("db"))
        XCTAssertEqual(after.updateSeq, before.updateSeq)
        XCTAssertLessThan(after.activeSize, before.activeSize)
        XCTAssertEqual(try references("old bytes"), 0)
        let doc = try XCTUnwrap(fixture.document("db", "d"))
        XCTAssertTrue(doc.tree.contains(try T.rev(r1)))
        XCTAssertNil(try fixture.store.read { try $0.revision(documentRowID: doc.rowID, rev: try T.rev(r1)) })
        XCTAssertEqual(doc.tree.revsInfo(of: doc.tree.winner!.rev).map(\.status), [.available, .missing, .missing])
    }

    func testDeletingTheDatabaseReleasesEveryReference() throws {
        _ = try fixture.apply("db", [Edits.interactive("d", "{}", attachments: [attachment("a", "gone")])])
        XCTAssertEqual(try references("gone"), 1)
        XCTAssertTrue(try fixture.store.deleteDatabase(name: "db"))
        XCTAssertEqual(try references("gone"), 0)
    }
}
