import XCTest
import Core
import HTTP
@testable import CouchAPI

/// The error body (§2.6), the response JSON form (§2.4) and the request JSON rules (§2.3).
final class CouchWireTests: XCTestCase {
    private func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    func testErrorBodyIsCompactWithNewline() {
        XCTAssertEqual(text(CouchError.conflict.body), #"{"error":"conflict","reason":"Document update conflict."}"# + "\n")
        XCTAssertEqual(CouchError.conflict.status, 409)
        XCTAssertEqual(text(CouchError.missing.body), #"{"error":"not_found","reason":"missing"}"# + "\n")
        XCTAssertEqual(CouchError.missing.description, "404 not_found: missing")
    }

    func testErrorTextsThatClientsCompare() {
        XCTAssertEqual(CouchError.invalidJSON, CouchError(status: 400, error: "bad_request", reason: "invalid UTF-8 JSON"))
        XCTAssertEqual(CouchError.missingStub(docID: "d", name: "a.txt"),
                       CouchError(status: 412, error: "missing_stub", reason: "Invalid attachment stub in d for a.txt"))
        XCTAssertEqual(CouchError.newEditsFalseNeedsRev.reason,
                       "When `new_edits: false`, the document needs `_rev` or `_revisions` specified")
        XCTAssertEqual(CouchError.fileExists.status, 412)
        XCTAssertEqual(CouchError.missingRev, CouchError(status: 409, error: "not_found", reason: "missing_rev"))
        XCTAssertEqual(CouchError.tooLarge, CouchError(status: 413, error: "too_large", reason: "the request entity is too large"))
        XCTAssertEqual(CouchError.attachmentTooLarge("a"), CouchError(status: 413, error: "attachment_too_large", reason: "a"))
        XCTAssertEqual(CouchError.badSpecialMember("_x").reason, "Bad special document member: _x")
    }

    func testStringsAreEscapedMinimally() {
        let error = CouchError.badRequest("a/b \"q\" \\ é\u{1}\n")
        XCTAssertEqual(text(error.body), #"{"error":"bad_request","reason":"a/b \"q\" \\ é\u0001\n"}"# + "\n")
    }

    func testRenderKeepsOrderAndLiterals() throws {
        let value = try CouchJSON.parse(Array(#"{"z":1E2,"a":[1.50,-0],"s":"\u00e9\/"}"#.utf8))
        XCTAssertEqual(text(CouchJSON.render(value)), #"{"z":1E2,"a":[1.50,-0],"s":"é/"}"# + "\n")
    }

    func testParseFailuresMapToCouchErrors() {
        let invalid: [[UInt8]] = [
            [], Array("  ".utf8), [0xEF, 0xBB, 0xBF] + Array("{}".utf8), Array("[NaN]".utf8), Array("[01]".utf8),
            Array(#"["\ud800"]"#.utf8), [0x22, 0xff, 0x22], Array("{} x".utf8), Array("[1,]".utf8), Array("{'a':1}".utf8),
            Array("[1e400]".utf8), Array("/*c*/1".utf8),
        ]
        for bytes in invalid {
            XCTAssertThrowsError(try CouchJSON.parse(bytes), "\(bytes)") { XCTAssertEqual($0 as? CouchError, .invalidJSON) }
        }
        XCTAssertThrowsError(try CouchJSON.parse(Array(#"{"a":1,"b":{"c":1,"c":2}}"#.utf8))) {
            XCTAssertEqual($0 as? CouchError, .duplicateKey)
        }
        XCTAssertEqual(CouchError.duplicateKey.reason, "Duplicate key in JSON object.")
        XCTAssertThrowsError(try CouchJSON.parse(Array("[1,2,3]".utf8), maxBytes: 4)) { XCTAssertEqual($0 as? CouchError, .tooLarge) }
        XCTAssertThrowsError(try CouchJSON.parse("[1,]")) { XCTAssertEqual($0 as? CouchError, .invalidJSON) }
    }

    func testDepthLimitIs512() throws {
        let ok = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
        XCTAssertNoThrow(try CouchJSON.parse(Array(ok.utf8)))
        let deep = String(repeating: "[", count: 513) + String(repeating: "]", count: 513)
        XCTAssertThrowsError(try CouchJSON.parse(Array(deep.utf8))) { XCTAssertEqual($0 as? CouchError, .invalidJSON) }
    }

    func testKeyOrderAndNulPreserved() throws {
        guard case .object(let object) = try CouchJSON.parse(#"{"b":"\u0000","a":2,"c":3}"#) else { return XCTFail() }
        XCTAssertEqual(object.keys, ["b", "a", "c"])
        XCTAssertEqual(object["b"]?.stringValue?.utf8.first, 0)
    }

    /// The media type of `Content-Type` is cut on bytes for ASCII values; it must be what splitting and
    /// lowercasing `Character`s gives, which non-ASCII values still take.
    func testMediaTypeOfContentTypeValues() {
        func characterWay(_ value: String) -> String {
            let type = value.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            return String(type).trimmingSpaces().lowercased()
        }
        let values = ["application/json", "Application/JSON; charset=utf-8", "  multipart/related ;boundary=x",
                      "\tMULTIPART/Mixed\t", "", " ", ";", " ; a", "text/plain;", "a;b;c", "x y ;z", "[@Z`{]",
                      "appl\u{0301}ication/json", "application/json;\u{0301}", "ÄPPLICATION/json", "é ;x"]
        for value in values {
            XCTAssertEqual(RequestBodies.mediaType(of: value), characterWay(value), value)
        }
        XCTAssertEqual(RequestBodies.mediaType(of: "Application/JSON; charset=utf-8"), "application/json")
        XCTAssertEqual(RequestBodies.mediaType(of: "\tMULTIPART/Mixed\t"), "multipart/mixed")
        XCTAssertTrue(CouchBodyLimit.isMultipart(HTTPHeaders([("Content-Type", " Multipart/Related; boundary=b")])))
        XCTAssertFalse(CouchBodyLimit.isMultipart(HTTPHeaders([("Content-Type", "application/json")])))
    }

    /// A write's answer written straight into bytes is the rendering of its JSON value.
    func testWrittenAnswerBytesAreTheRenderedValue() throws {
        for id in ["doc", "_design/d", "a\"b\\c", "line\nbreak\u{1}", "é😀", ""] {
            for rev in ["1-967a00dff5e02add41819138abb3284d", "12-abc"] {
                let revision = try RevID(parsing: rev)
                XCTAssertEqual(text(DocumentWrites.writtenBytes(id: id, rev: revision)),
                               text(CouchJSON.render(DocumentWrites.written(id: id, rev: revision))), id)
            }
        }
    }

    /// The multipart pre-check never refuses a value whose media type is `multipart/related`, and refuses the
    /// usual JSON ones.
    func testMultipartPreCheckOnlyRefusesOtherMediaTypes() {
        let values = ["multipart/related; boundary=x", "  \tMultipart/Related;boundary=x", "application/json",
                      " application/json; charset=utf-8", "", "   ", "\u{301}multipart/related", " \u{301}m", "x\u{301}",
                      "\r\nmultipart/related", "Ｍultipart/related", "text/plain"]
        for value in values where RequestBodies.mediaType(of: value) == "multipart/related" {
            XCTAssertTrue(MultipartDocumentWrite.mayBeMultipart(value), value)
        }
        XCTAssertTrue(MultipartDocumentWrite.mayBeMultipart(" \tMultipart/Related; boundary=b"))
        XCTAssertFalse(MultipartDocumentWrite.mayBeMultipart("application/json"))
        XCTAssertFalse(MultipartDocumentWrite.mayBeMultipart(" \tapplication/json; charset=utf-8"))
    }
}
