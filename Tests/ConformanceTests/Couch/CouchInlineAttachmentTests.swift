import Foundation
import XCTest
import Core

/// The checklist items about attachments that JSON bodies with inline data already cover (spec §3.5.1,
/// §3.5.2, §4.7, §5.6): CD-090, CD-093, CD-099, CD-100, CD-101, CD-105.
final class CouchInlineAttachmentTests: CouchTestCase {
    /// The checklist rows here give identity digests (`md5-XUFAKrxLKna5cZ2REBfFkg==` for a text/plain "hello"):
    /// with `couch.attachmentCompressionLevel` 0 every attachment is stored as received. The default, compressing
    /// text types as CouchDB does, is CouchGzipAttachmentTests'.
    override var environment: [String: String] { ["QUARTET_COUCH_ATTACHMENT_COMPRESSION_LEVEL": "0"] }
    private let hello = #"{"_attachments":{"a.txt":{"content_type":"text/plain","data":"aGVsbG8="}}}"#

    func test_CD_090_readingAnAttachment() throws {
        try put("doc", hello)
        let r = try send("GET", "/db/doc/a.txt")
        XCTAssertEqual(r.status, 200)
        XCTAssertEqual(r.text, "hello")
        XCTAssertEqual(r.header("Content-Type"), "text/plain")
        XCTAssertEqual(r.header("ETag"), "\"XUFAKrxLKna5cZ2REBfFkg==\"")
        XCTAssertEqual(r.header("Content-MD5"), "XUFAKrxLKna5cZ2REBfFkg==")
        XCTAssertEqual(r.header("Accept-Ranges"), "bytes")
        let head = try send("HEAD", "/db/doc/a.txt")
        XCTAssertEqual(head.header("Content-Length"), "5")
        assertError(try send("GET", "/db/doc/nosuch"), 404, "not_found", "Document is missing attachment")
    }

    func test_CD_093_anEmptyAttachment() throws {
        try put("doc", #"{"_attachments":{"e":{"content_type":"text/plain","data":""}}}"#)
        let stub = try get("/db/doc")["_attachments"]?["e"]
        XCTAssertEqual(stub?["length"]?.int64Value, 0)
        XCTAssertEqual(stub?["digest"]?.stringValue, "md5-1B2M2Y8AsgTpgAmY7PhCfg==")
    }

    func test_CD_099_inlineDataBecomesAStub() throws {
        let r = try send("PUT", "/db/doc", body: #"{"_attachments":{"x.bin":{"content_type":"application/octet-stream","data":"aGVsbG8="}}}"#)
        XCTAssertEqual(r.status, 201, r.text)
        XCTAssertEqual(try get("/db/doc")["_attachments"]?.serialized(),
                       #"{"x.bin":{"content_type":"application/octet-stream","revpos":1,"digest":"md5-XUFAKrxLKna5cZ2REBfFkg==","length":5,"stub":true}}"#)
        assertError(try send("PUT", "/db/bad", body: #"{"_attachments":{"x.bin":{"data":"!!!"}}}"#), 400, "bad_request",
                    "Invalid attachment data for x.bin")
        assertError(try send("GET", "/db/bad"), 404, "not_found", "missing")
        // Whitespace and missing padding are tolerated.
        try put("loose", #"{"_attachments":{"y":{"data":"aGVs\nbG8"}}}"#)
        XCTAssertEqual(try send("GET", "/db/loose/y").text, "hello")
    }

    func test_CD_100_anUpdateWithoutAttachmentsDropsThem() throws {
        let r1 = try put("doc", hello)
        let r2 = try put("doc", #"{"_rev":"\#(r1)","v":2}"#)
        XCTAssertNil(try get("/db/doc")["_attachments"])
        XCTAssertNotNil(try get("/db/doc?rev=\(r1)")["_attachments"]?["a.txt"])
        XCTAssertTrue(r2.hasPrefix("2-"))
    }

    func test_CD_101_stubs() throws {
        let r1 = try put("doc", hello)
        let r2 = try put("doc", #"{"_rev":"\#(r1)","v":2,"_attachments":{"a.txt":{"stub":true}}}"#)
        let stub = try get("/db/doc")["_attachments"]?["a.txt"]
        XCTAssertEqual(stub?["digest"]?.stringValue, "md5-XUFAKrxLKna5cZ2REBfFkg==")
        XCTAssertEqual(stub?["revpos"]?.int64Value, 1)
        assertError(try send("PUT", "/db/doc", body: #"{"_rev":"\#(r2)","_attachments":{"nosuch":{"stub":true}}}"#),
                    412, "missing_stub", "Invalid attachment stub in doc for nosuch")
        assertError(try send("PUT", "/db/doc", body: #"{"_rev":"\#(r2)","_attachments":{"a.txt":{"stub":true,"revpos":2}}}"#),
                    412, "missing_stub")
        assertError(try send("PUT", "/db/new", body: #"{"_attachments":{"a.txt":{"stub":true}}}"#), 412, "missing_stub",
                    "Invalid attachment stub in new for a.txt")
        XCTAssertEqual(try get("/db/doc")["_rev"]?.stringValue, r2)
    }

    func test_CD_105_followsOutsideMultipartAndLocalAttachments() throws {
        assertError(try send("PUT", "/db/f", body: #"{"_attachments":{"a":{"follows":true,"length":5}}}"#), 400, "bad_request")
        assertError(try send("GET", "/db/f"), 404, "not_found", "missing")
        assertError(try send("PUT", "/db/_local/x/att", body: "{}"), 400, "bad_request", "_local documents do not accept attachments.")
    }
}
