import XCTest
import Core
@testable import CouchAPI

/// Database names (§4.2), document ids (§4.3) and attachment names (§4.7) with CouchDB's exact errors.
final class ValidationTests: XCTestCase {
    private func docIDError(_ bytes: [UInt8], maxLength: Int = DocumentID.defaultMaxLength) -> String? {
        do {
            _ = try DocumentID.validate(utf8: bytes, maxLength: maxLength)
            return nil
        } catch {
            XCTAssertEqual(error.status, 400)
            XCTAssertEqual(error.error, "illegal_docid")
            return error.reason
        }
    }

    private func docIDError(_ text: String, maxLength: Int = DocumentID.defaultMaxLength) -> String? {
        docIDError(Array(text.utf8), maxLength: maxLength)
    }

    func testValidDocumentIDs() {
        for id in ["a", "doc1", "a/b", "with space", "quote\"", "%2F", "+", "\u{1}", "é😀", "_design/x", "_local/y"] {
            XCTAssertNil(docIDError(id), id)
        }
        XCTAssertNil(docIDError(String(repeating: "x", count: 2048)))
    }

    func testDocumentIDChecksInCouchDBOrder() {
        XCTAssertEqual(docIDError(""), "Document id must not be empty")
        XCTAssertEqual(docIDError("_design/"), "Illegal document id `_design/`")
        XCTAssertEqual(docIDError("_local/"), "Illegal document id `_local/`")
        XCTAssertEqual(docIDError(String(repeating: "x", count: 2049)), "Document id is too long")
        XCTAssertEqual(docIDError("abcd", maxLength: 3), "Document id is too long")
        XCTAssertEqual(docIDError([0x61, 0xff]), "Document id must be valid UTF-8")
        XCTAssertEqual(docIDError([0xed, 0xa0, 0x80]), "Document id must be valid UTF-8")   // encoded surrogate
        XCTAssertEqual(docIDError("a\u{0}b"), "Document id must not contain NUL characters")
        XCTAssertEqual(docIDError("_foo"), "Only reserved document ids may start with underscore.")
        XCTAssertEqual(docIDError("_Design/x"), "Only reserved document ids may start with underscore.")
        // Order: length before UTF-8, UTF-8 before NUL, NUL before the underscore rule.
        XCTAssertEqual(docIDError([0xff] + Array(repeating: 0x61, count: 2048)), "Document id is too long")
        XCTAssertEqual(docIDError([0x00, 0xff]), "Document id must be valid UTF-8")
        XCTAssertEqual(docIDError("_\u{0}"), "Document id must not contain NUL characters")
    }

    func testDocumentIDMustBeAString() {
        XCTAssertThrowsError(try DocumentID.validate(json: .int(1))) {
            XCTAssertEqual($0 as? CouchError, .illegalDocID("Document id must be a string"))
        }
        XCTAssertEqual(try DocumentID.validate(json: "x"), "x")
        XCTAssertTrue(DocumentID.isDesign("_design/a"))
        XCTAssertTrue(DocumentID.isLocal("_local/a"))
        XCTAssertFalse(DocumentID.isLocal("_design/a"))
    }

    func testDatabaseNames() throws {
        for name in ["a", "db", "couchdb-python/12", "a0_$()+-/", "z" + String(repeating: "a", count: 237)] {
            XCTAssertNoThrow(try DatabaseName.validate(name), name)
        }
        let reason: (String) -> String = {
            "Name: '\($0)'. Only lowercase characters (a-z), digits (0-9), and any of the characters _, $, (, ), +, -, and / are allowed. Must begin with a letter."
        }
        for name in ["", "A", "1db", "_db", "db.x", "dB", "db name", "é", "$db"] {
            XCTAssertThrowsError(try DatabaseName.validate(name), name) { error in
                XCTAssertEqual(error as? CouchError, CouchError(status: 400, error: "illegal_database_name", reason: reason(name)))
            }
        }
        let long = String(repeating: "a", count: 239)
        XCTAssertThrowsError(try DatabaseName.validate(long)) {
            XCTAssertEqual($0 as? CouchError, CouchError(status: 400, error: "database_name_too_long",
                                                        reason: "At least one path segment of `\(long)` is too long."))
        }
        XCTAssertThrowsError(try DatabaseName.validate("_users"))
        XCTAssertNoThrow(try DatabaseName.validate("_users", allowsUsersDatabase: true))
        XCTAssertThrowsError(try DatabaseName.validate("_replicator", allowsUsersDatabase: true))
    }

    func testDatabaseNameErrorBodyEscapesTheName() {
        let body = String(decoding: CouchError.illegalDatabaseName("a\"b").body, as: UTF8.self)
        XCTAssertTrue(body.hasPrefix(#"{"error":"illegal_database_name","reason":"Name: 'a\"b'. Only"#), body)
        XCTAssertTrue(body.hasSuffix("}\n"))
    }

    func testAttachmentNames() throws {
        XCTAssertEqual(try AttachmentName.validate(utf8: Array("a/b.txt".utf8)), "a/b.txt")
        XCTAssertEqual(try AttachmentName.validate(utf8: Array("../../etc/passwd".utf8)), "../../etc/passwd")
        let cases: [([UInt8], String)] = [
            (Array("_x".utf8), "Attachment name '_x' starts with prohibited character '_'"),
            ([0x61, 0xc3], "Attachment name is not UTF-8 encoded"),
            ([], "Attachment name must not be empty"),
            ([0x61, 0x00], "Attachment name must not contain NUL characters"),
        ]
        for (bytes, reason) in cases {
            XCTAssertThrowsError(try AttachmentName.validate(utf8: bytes)) {
                XCTAssertEqual($0 as? CouchError, .badRequest(reason))
            }
        }
    }
}

/// `md5-…` digests (§4.7) and their use in revision ids.
final class AttachmentDigestTests: XCTestCase {
    func testDigestForms() {
        let md5 = Crypto.md5(Array("hello".utf8))
        XCTAssertEqual(AttachmentDigest.string(md5: md5), "md5-XUFAKrxLKna5cZ2REBfFkg==")
        XCTAssertEqual(AttachmentDigest.md5(from: "md5-XUFAKrxLKna5cZ2REBfFkg=="), md5)
        XCTAssertNil(AttachmentDigest.md5(from: "sha1-qvTGHdzF6KLavt4PO0gs2a6pQ00="))
        XCTAssertNil(AttachmentDigest.md5(from: "md5-aGVsbG8="))        // 5 bytes, not 16
        XCTAssertNil(AttachmentDigest.md5(from: "md5-!!"))
        XCTAssertNil(AttachmentDigest.md5(from: "XUFAKrxLKna5cZ2REBfFkg=="))
    }

    func testStoredDigestGivesTheSameRevisionAsRawBytes() throws {
        // D13 again, this time from a stored attachment's digest text, as a stub-carrying edit would.
        let attachment = try XCTUnwrap(RevisionHashAttachment(name: "a.bin", contentType: "application/octet-stream",
                                                              digest: "md5-XUFAKrxLKna5cZ2REBfFkg=="))
        XCTAssertEqual(try RevisionHash.newRevID(parent: nil, deleted: false, body: [:], attachments: [attachment]).description,
                       "1-8c161e6ebc477eb9060fcacc36b6c836")
        XCTAssertNil(RevisionHashAttachment(name: "a", contentType: "t", digest: "sha1-x"))
    }
}
