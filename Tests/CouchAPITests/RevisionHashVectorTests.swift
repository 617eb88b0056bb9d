import XCTest
import Core
@testable import CouchAPI

/// Every test vector of spec §4.5: the ones published with CouchDB (V1–V11) and the derived ones
/// (D1–D14), each computed from the JSON text a client sends, through Couch's parser.
final class RevisionHashVectorTests: XCTestCase {
    /// The id of a first revision with body `json` (no special members).
    private func firstRev(_ json: String, file: StaticString = #filePath, line: UInt = #line) throws -> String {
        try rev(json, parent: nil, file: file, line: line)
    }

    private func rev(_ json: String, parent: String?, deleted: Bool = false,
                     file: StaticString = #filePath, line: UInt = #line) throws -> String {
        guard case .object(let body) = try CouchJSON.parse(Array(json.utf8)) else {
            XCTFail("not an object: \(json)", file: file, line: line)
            return ""
        }
        let parentRev = try parent.map { text throws(CouchError) in try RevID(parsing: text) }
        let rev = try RevisionHash.newRevID(parent: parentRev, deleted: deleted, body: body).description
        // The same id from the body read without a tree (a document `PUT`'s way).
        let document = try XCTUnwrap(SingleDocumentReader.read(Array(json.utf8), maxDocIDLength: DocumentID.defaultMaxLength),
                                     json, file: file, line: line)
        XCTAssertEqual(try RevisionHash.newRevID(parent: parentRev, deleted: deleted, body: .term(document.term)).description,
                       rev, json, file: file, line: line)
        return rev
    }

    func testV1toV3ConflictsTestChain() throws {
        XCTAssertEqual(try firstRev(#"{"val":"r0"}"#), "1-47f3268e7546965196b57572099f4372")
        XCTAssertEqual(try rev(#"{"val":"r1"}"#, parent: "1-47f3268e7546965196b57572099f4372"),
                       "2-1d8171ab3a91475cfece749291e6f897")
        XCTAssertEqual(try rev(#"{"val":"r2"}"#, parent: "2-1d8171ab3a91475cfece749291e6f897"),
                       "3-3fb0a342d2ce092fdcc77856dbe8a2ef")
    }

    func testV4toV10PublishedFirstRevisions() throws {
        XCTAssertEqual(try firstRev(#"{"partitioned_doc":true}"#), "1-43d86359741cb629c0953a2beb6e9d7a")
        XCTAssertEqual(try firstRev("{}"), "1-967a00dff5e02add41819138abb3284d")
        XCTAssertEqual(try firstRev(#"{"a":1}"#), "1-23202479633c2b380f79507a776743d5")
        XCTAssertEqual(try firstRev(#"{"baz":false}"#), "1-309651b95df56d52658650fb64257b97")
        XCTAssertEqual(try rev(#"{"baz":true}"#, parent: "1-309651b95df56d52658650fb64257b97"),
                       "2-9b71d36dfdd9b4815388eb91cc8fb61d")
        XCTAssertEqual(try firstRev(#"{"servings":4,"subtitle":"Delicious with freshly baked bread","title":"FishStew"}"#),
                       "1-6a466d5dfda05e613ba97bd737829d67")
        XCTAssertEqual(try firstRev(#"{"description":"An Italian-American dish that usually consists of spaghetti, tomato sauce and meatballs.","ingredients":["spaghetti","tomato sauce","meatballs"],"name":"Spaghetti with meatballs"}"#),
                       "1-917fa2381192822767f010b95b45325b")
    }

    func testV11DeletionHasEmptyBody() throws {
        XCTAssertEqual(try rev("{}", parent: "1-9c65296036141e575d32ba9c034dd3ee", deleted: true),
                       "2-056f5f44046ecafc08a2bc2b9c229e20")
    }

    func testD1toD3Lists() throws {
        XCTAssertEqual(try firstRev(#"{"a":[1,2,3]}"#), "1-308048961a84beb0c9e99e07facf0f5f")
        XCTAssertEqual(try firstRev(#"{"a":[1,2,300]}"#), "1-a77dc9a33f4f57596bdf0a2121a0cb5e")
        XCTAssertEqual(try firstRev(#"{"a":[]}"#), "1-d49a64a623a0fcc15fb2a4e9edf20834")
    }

    func testD4toD9Numbers() throws {
        XCTAssertEqual(try firstRev(#"{"a":1.0}"#), "1-8a159b695bf2bd957f1a435bfd6e1739")
        XCTAssertEqual(try firstRev(#"{"n":1e2}"#), "1-1f9f72340d02da75a0dea68a5cc01201")
        XCTAssertEqual(try firstRev(#"{"n":100.0}"#), "1-1f9f72340d02da75a0dea68a5cc01201")
        XCTAssertEqual(try firstRev(#"{"n":1E2}"#), "1-1f9f72340d02da75a0dea68a5cc01201")
        XCTAssertEqual(try firstRev(#"{"n":-1}"#), "1-7185806cde8c26c2324d4aed25219678")
        XCTAssertEqual(try firstRev(#"{"n":256}"#), "1-cd987f621f5e03b6e46a5814073969f1")
        XCTAssertEqual(try firstRev(#"{"n":12345678901234567890}"#), "1-2db86b567a9cbeac44d11299a99cb197")
        XCTAssertEqual(try firstRev(#"{"n":1.5}"#), "1-99db0b5dcaf48e1b5825246599f27636")
    }

    func testD10EscapedAndRawUnicodeAreTheSameBytes() throws {
        XCTAssertEqual(try firstRev(#"{"k":"\u00e9\ud83d\ude00"}"#), "1-01ce826349bffb1f247c72526b5f0bcf")
        XCTAssertEqual(try firstRev("{\"k\":\"é😀\"}"), "1-01ce826349bffb1f247c72526b5f0bcf")
    }

    func testD11NestedValues() throws {
        XCTAssertEqual(try firstRev(#"{"a":{"b":[true,null,"x"]},"c":[]}"#), "1-b9f4a3a81a4fc070a55e751026b105cc")
    }

    func testD12FirstRevisionTombstone() throws {
        // `{"_deleted":true}`: the member is stripped, the body hashed is `{}` and Deleted is `true`.
        let input = try DocumentInput(object(#"{"_deleted":true}"#))
        XCTAssertTrue(input.deleted)
        XCTAssertEqual(try RevisionHash.newRevID(parent: nil, deleted: input.deleted, body: input.body).description,
                       "1-de715bf126efc93d225d9e3f8e8eb81a")
        let document = try XCTUnwrap(SingleDocumentReader.read(Array(#"{"_deleted":true}"#.utf8), maxDocIDLength: 64))
        XCTAssertTrue(document.deleted)
        XCTAssertEqual(try RevisionHash.newRevID(parent: nil, deleted: document.deleted, body: .term(document.term)).description,
                       "1-de715bf126efc93d225d9e3f8e8eb81a")
    }

    func testD13InlineAttachment() throws {
        let input = try DocumentInput(object(#"{"_attachments":{"a.bin":{"content_type":"application/octet-stream","data":"aGVsbG8="}}}"#))
        XCTAssertEqual(try RevisionHash.newRevID(parent: nil, deleted: false, body: input.body,
                                                 attachments: hashAttachments(input)).description,
                       "1-8c161e6ebc477eb9060fcacc36b6c836")
    }

    func testD14TwoAttachmentsHashInReverseOrder() throws {
        let input = try DocumentInput(object(#"{"_attachments":{"a.bin":{"content_type":"application/octet-stream","data":"aGVsbG8="},"b.bin":{"content_type":"application/octet-stream","data":"d29ybGQ="}}}"#))
        let attachments = try hashAttachments(input)
        XCTAssertEqual(attachments.map(\.name), ["a.bin", "b.bin"])
        XCTAssertEqual(try RevisionHash.newRevID(parent: nil, deleted: false, body: input.body,
                                                 attachments: attachments).description,
                       "1-75daf6658caf6b0303131d0883a9110b")
        // The list order matters: the other order is another revision.
        XCTAssertNotEqual(try RevisionHash.newRevID(parent: nil, deleted: false, body: input.body,
                                                    attachments: attachments.reversed()).description,
                          "1-75daf6658caf6b0303131d0883a9110b")
    }

    func testDocumentIDIsNotHashed() throws {
        // V5 is the first revision of every empty document, whatever its id.
        let a = try DocumentInput(object(#"{"_id":"a"}"#)), b = try DocumentInput(object(#"{"_id":"b"}"#))
        XCTAssertEqual(try RevisionHash.newRevID(parent: nil, deleted: false, body: a.body),
                       try RevisionHash.newRevID(parent: nil, deleted: false, body: b.body))
    }

    // MARK: helpers

    private func object(_ json: String) throws -> JSON { try CouchJSON.parse(Array(json.utf8)) }

    /// Inline attachments of an input, decoded and digested the way the attachment layer will.
    private func hashAttachments(_ input: DocumentInput) throws -> [RevisionHashAttachment] {
        let members = try XCTUnwrap(input.attachments)
        return try members.map { name, value in
            let data = try XCTUnwrap(Base64.decode(try XCTUnwrap(value["data"]?.stringValue)))
            return RevisionHashAttachment(name: name, contentType: try XCTUnwrap(value["content_type"]?.stringValue),
                                          md5: Crypto.md5(data))
        }
    }
}
