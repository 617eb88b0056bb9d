import XCTest
import Core
import HTTP
@testable import CouchAPI

/// The multipart/related document reader (spec §5.11.1): document part, `follows` parts matched by filename or
/// order, size and digest checks, limits, and nothing kept after a refusal.
final class MultipartDocumentReadTests: XCTestCase {
    private var spools: [MemorySpool] = []
    private var limits = RelatedDocumentReader.Limits(maxDocumentPart: 4096, maxAttachment: 64)

    /// `--b` parts: each a header block and content.
    private func body(_ parts: [(headers: [String], content: String)], close: Bool = true) -> RequestBody {
        var text = "preamble"
        for part in parts {
            text += "\r\n--b\r\n" + part.headers.map { $0 + "\r\n" }.joined() + "\r\n" + part.content
        }
        text += close ? "\r\n--b--\r\nepilogue" : ""
        return .bytes(Array(text.utf8))
    }

    private static let json = "Content-Type: application/json"

    private static func doc(_ attachments: String) -> String {
        #"{"_id":"m","v":1,"_attachments":{\#(attachments)}}"#
    }

    private static let helloMD5 = "md5-XUFAKrxLKna5cZ2REBfFkg=="

    private func read(_ body: RequestBody, maxParts: Int = 10, replicated: Bool = false,
                      compression: AttachmentCompression = .off) throws(CouchError)
        -> (JSONObject, [String: StoredAttachment]) {
        try MultipartDocumentWrite.read(body, boundary: "b", limits: limits, compression: compression, maxParts: maxParts,
                                        replicated: replicated) {
            let spool = MemorySpool()
            self.spools.append(spool)
            return spool
        }
    }

    private func assertRefused(_ body: RequestBody, _ status: Int, _ error: String, _ reason: String? = nil,
                               maxParts: Int = 10, compression: AttachmentCompression = .off, line: UInt = #line) {
        spools = []
        XCTAssertThrowsError(try read(body, maxParts: maxParts, compression: compression), line: line) { thrown in
            guard let couch = thrown as? CouchError else { return XCTFail("\(thrown)", line: line) }
            XCTAssertEqual(couch.status, status, "\(couch)", line: line)
            XCTAssertEqual(couch.error, error, "\(couch)", line: line)
            if let reason { XCTAssertEqual(couch.reason, reason, line: line) }
        }
        XCTAssertTrue(spools.allSatisfy(\.discarded), "every spool is dropped after a refusal", line: line)
    }

    func testFollowsPartsInOrder() throws {
        let (document, attachments) = try read(body([
            ([Self.json], Self.doc(#""a.txt":{"follows":true,"length":5,"digest":"\#(Self.helloMD5)","content_type":"text/plain","revpos":7},"b.bin":{"follows":true}"#)),
            (["Content-Type: text/plain"], "hello"),
            ([], "x\r\n-b--b"),
        ]))
        XCTAssertEqual(document["v"], .int(1))
        XCTAssertEqual(attachments["a.txt"]?.digest, Self.helloMD5)
        XCTAssertEqual(attachments["a.txt"]?.length, 5)
        XCTAssertEqual(attachments["a.txt"]?.contentType, "text/plain")
        XCTAssertEqual(attachments["a.txt"]?.revpos, 0, "interactive writes give the new generation later")
        XCTAssertEqual(attachments["b.bin"]?.length, 8)
        XCTAssertEqual(attachments["b.bin"]?.contentType, "application/octet-stream")
        XCTAssertEqual(attachments["b.bin"]?.digest, AttachmentDigest.string(md5: Crypto.md5(Array("x\r\n-b--b".utf8))))
        XCTAssertEqual(spools.map(\.bytes), [Array("hello".utf8), Array("x\r\n-b--b".utf8)])
        XCTAssertEqual(attachments["a.txt"]?.blobHash, Hex.encode(Crypto.sha256(Array("hello".utf8))))
        XCTAssertEqual(try read(body([([Self.json], Self.doc(#""a":{"follows":true,"revpos":7}"#)), ([], "x")]),
                                replicated: true).1["a"]?.revpos, 7, "replicated writes keep revpos")
    }

    func testPartsMatchedByFilenameWhenAllNameDistinctMembers() throws {
        let twoAttachments = Self.doc(#""one":{"follows":true,"length":3},"two":{"follows":true,"length":5}"#)
        let swapped = try read(body([
            ([Self.json], twoAttachments),
            (["Content-Disposition: attachment; filename=\"two\""], "bytes"),
            (["Content-Disposition: attachment; filename=\"one\""], "one"),
        ])).1
        XCTAssertEqual(swapped["one"]?.blobHash, Hex.encode(Crypto.sha256(Array("one".utf8))))
        XCTAssertEqual(swapped["two"]?.blobHash, Hex.encode(Crypto.sha256(Array("bytes".utf8))))
        // One part without a filename: order decides, so the lengths no longer fit.
        assertRefused(body([
            ([Self.json], twoAttachments),
            (["Content-Disposition: attachment; filename=\"two\""], "bytes"),
            ([], "one"),
        ]), 400, "bad_request", "attachment longer than expected")
    }

    func testMatchRule() {
        XCTAssertEqual(RelatedDocumentReader.match(["a", "b"], filenames: ["b", "a"]), [1, 0])
        XCTAssertEqual(RelatedDocumentReader.match(["a", "b"], filenames: ["a", "a"]), [0, 1], "duplicates: order")
        XCTAssertEqual(RelatedDocumentReader.match(["a", "b"], filenames: ["b", "c"]), [0, 1], "unknown name: order")
        XCTAssertEqual(RelatedDocumentReader.match(["a", "b"], filenames: ["b", nil]), [0, 1])
        XCTAssertEqual(RelatedDocumentReader.match([], filenames: []), [])
    }

    func testSizeAndDigestChecks() {
        let declared = Self.doc(#""a":{"follows":true,"length":5,"digest":"\#(Self.helloMD5)"}"#)
        assertRefused(body([([Self.json], declared), ([], "hell")]), 400, "bad_request", "attachment shorter than expected")
        assertRefused(body([([Self.json], declared), ([], "hello!")]), 400, "bad_request", "attachment longer than expected")
        assertRefused(body([([Self.json], declared), ([], "HELLO")]), 400, "content_md5_mismatch", "Possible message corruption.")
        let badDigest = Self.doc(#""a":{"follows":true,"digest":"md5-!!"}"#)
        assertRefused(body([([Self.json], badDigest), ([], "hello")]), 400, "content_md5_mismatch")
        let sha1 = Self.doc(#""a":{"follows":true,"digest":"sha1-AAAA"}"#)
        XCTAssertNoThrow(try read(body([([Self.json], sha1), ([], "hello")])), "non-MD5 digests are ignored")
        let noLength = Self.doc(#""a":{"follows":true}"#)
        assertRefused(body([([Self.json], noLength), (["Content-Length: 4"], "hello")]), 400, "bad_request",
                      "attachment longer than expected")
        assertRefused(body([([Self.json], Self.doc(#""a":{"follows":true,"length":-1}"#)), ([], "x")]), 400, "bad_request")
    }

    func testGzipPartsAreStoredAsReceived() throws {
        let gz: [UInt8] = [0x1f, 0x8b, 0x08, 0x00, 0x00]
        let text = "--b\r\nContent-Type: application/json\r\n\r\n"
            + Self.doc(#""t.txt":{"follows":true,"content_type":"text/plain","encoding":"gzip","encoded_length":5,"length":11}"#)
            + "\r\n--b\r\nContent-Encoding: gzip\r\n\r\n"
        let bytes = Array(text.utf8) + gz + Array("\r\n--b--".utf8)
        let stored = try XCTUnwrap(read(.bytes(bytes)).1["t.txt"])
        XCTAssertEqual(stored.encoding, "gzip")
        XCTAssertEqual(stored.encodedLength, 5)
        XCTAssertEqual(stored.length, 11)
        XCTAssertEqual(stored.digest, AttachmentDigest.string(md5: Crypto.md5(gz)))
        assertRefused(body([([Self.json], Self.doc(#""a":{"follows":true,"encoding":"br"}"#)), ([], "x")]), 415, "bad_content_type",
                      "Only gzip and identity content-encodings are supported")
        assertRefused(body([([Self.json], Self.doc(#""a":{"follows":true}"#)), (["Content-Encoding: deflate"], "x")]), 415,
                      "bad_content_type")
    }

    func testIdentityPartsOfCompressibleTypesAreCompressed() throws {
        let compression = AttachmentCompression()
        let packed = try Compression.deflate(Array("hello".utf8), format: .gzip, level: 8)
        let attachments = try read(body([
            ([Self.json], Self.doc(#""a.txt":{"follows":true,"content_type":"text/plain","digest":"\#(Self.helloMD5)"},"b.bin":{"follows":true}"#)),
            ([], "hello"),
            ([], "hello"),
        ]), compression: compression).1
        let text = try XCTUnwrap(attachments["a.txt"])
        XCTAssertEqual(text.encoding, "gzip")
        XCTAssertEqual(text.length, 5)
        XCTAssertEqual(text.encodedLength, Int64(packed.count))
        XCTAssertEqual(text.digest, AttachmentDigest.string(md5: Crypto.md5(packed)), "the digest of the stored gzip bytes")
        XCTAssertEqual(text.blobHash, Hex.encode(Crypto.sha256(packed)))
        XCTAssertNil(attachments["b.bin"]?.encoding)
        XCTAssertEqual(attachments["b.bin"]?.digest, Self.helloMD5)
        // One spool per part: nothing kept twice when position and filename agree.
        XCTAssertEqual(spools.map(\.bytes), [packed, Array("hello".utf8)])
        XCTAssertFalse(spools.contains(where: \.discarded))
        // The part's filename names the other attachment: kept both ways, the unused copy dropped at the end.
        spools = []
        let swapped = try read(body([
            ([Self.json], Self.doc(#""one":{"follows":true},"two.txt":{"follows":true,"content_type":"text/plain"}"#)),
            (["Content-Disposition: attachment; filename=\"two.txt\""], "hello"),
            (["Content-Disposition: attachment; filename=\"one\""], "one"),
        ]), compression: compression).1
        XCTAssertEqual(swapped["two.txt"]?.blobHash, Hex.encode(Crypto.sha256(packed)))
        XCTAssertEqual(swapped["one"]?.blobHash, Hex.encode(Crypto.sha256(Array("one".utf8))))
        XCTAssertEqual(spools.count, 4)
        XCTAssertEqual(spools.filter(\.discarded).count, 2)
        // A refused body drops both copies.
        assertRefused(body([
            ([Self.json], Self.doc(#""a.txt":{"follows":true,"content_type":"text/plain","digest":"\#(AttachmentDigest.string(md5: Crypto.md5(packed)))"}"#)),
            ([], "hello"),
        ]), 400, "content_md5_mismatch", compression: compression)
    }

    func testDocumentPartRules() {
        assertRefused(body([(["Content-Type: text/plain"], "{}")]), 415, "bad_content_type", "Content-Type must be application/json")
        assertRefused(body([([], "{}")]), 415, "bad_content_type")
        assertRefused(body([([Self.json], "{")]), 400, "bad_request", "invalid UTF-8 JSON")
        assertRefused(body([([Self.json], #"{"a":1,"a":2}"#)]), 400, "bad_request", "Duplicate key in JSON object.")
        assertRefused(body([([Self.json], "[]")]), 400, "bad_request", "Document must be a JSON object")
        assertRefused(body([([Self.json], Self.doc(#""_x":{"follows":true}"#)), ([], "x")]), 400, "bad_request")
        assertRefused(.bytes(Array("--b--".utf8)), 400, "bad_request")
        XCTAssertNoThrow(try read(body([(["Content-Type: Application/JSON; charset=utf-8"], "{}")])))
    }

    func testPartCountsAndSyntax() {
        let one = Self.doc(#""a":{"follows":true}"#)
        assertRefused(body([([Self.json], one)]), 400, "bad_request")
        assertRefused(body([([Self.json], one), ([], "x"), ([], "y")]), 400, "bad_request")
        assertRefused(body([([Self.json], one), ([], "x")], close: false), 400, "bad_request",
                      "Invalid multipart/related body: missing final boundary")
        assertRefused(.bytes(Array("no delimiter at all".utf8)), 400, "bad_request")
        assertRefused(body([([Self.json], Self.doc(#""a":{"follows":true},"b":{"follows":true}"#)), ([], "x"), ([], "y")]),
                      413, "too_large", maxParts: 2)
    }

    func testSizeLimits() {
        let big = String(repeating: "x", count: 65)
        assertRefused(body([([Self.json], Self.doc(#""big.bin":{"follows":true}"#)), ([], big)]), 413,
                      "attachment_too_large", "big.bin")
        XCTAssertNoThrow(try read(body([([Self.json], Self.doc(#""a":{"follows":true}"#)), ([], String(big.dropFirst()))])))
        let hugeDocument = #"{"pad":""# + String(repeating: "p", count: 4096) + #""}"#
        assertRefused(body([([Self.json], hugeDocument)]), 413, "too_large")
    }

    func testASpooledBodyIsReadInPieces() throws {
        let text = "--b\r\nContent-Type: application/json\r\n\r\n" + Self.doc(#""a":{"follows":true}"#)
            + "\r\n--b\r\n\r\n" + String(repeating: "0123456789", count: 20_000) + "\r\n--b--"
        let path = NSTemporaryDirectory() + "multipart-read-\(UUID().uuidString)"
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(text.utf8)))
        defer { try? FileManager.default.removeItem(atPath: path) }
        limits.maxAttachment = 200_000
        let attachments = try read(.file(path: path, length: text.utf8.count)).1
        XCTAssertEqual(attachments["a"]?.length, 200_000)
        XCTAssertEqual(spools.last?.bytes.count, 200_000)
    }
}

/// The bytes of multipart answers (spec §5.11.2, §5.11.3).
final class MultipartRelatedWriterTests: XCTestCase {
    func testLayoutIsCouchDBs() {
        var related = MultipartRelated(boundary: "I")
        related.appendDocument(Array(#"{"a":1}"#.utf8))
        related.appendAttachment(StoredAttachment(name: #"q"\.txt"#, contentType: "text/plain", length: 2, digest: "md5-x",
                                                  revpos: 1, blobHash: ""), bytes: Array("hi".utf8))
        related.appendAttachment(StoredAttachment(name: "z.gz", contentType: "text/plain", length: 9, digest: "md5-y", revpos: 1,
                                                  encoding: "gzip", encodedLength: 3, blobHash: ""), bytes: [1, 2, 3])
        XCTAssertEqual(related.contentType, #"multipart/related; boundary="I""#)
        let expected = "--I\r\nContent-Type: application/json\r\n\r\n{\"a\":1}\r\n--I"
            + "\r\nContent-Disposition: attachment; filename=\"q\\\"\\\\.txt\"\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n\r\nhi\r\n--I"
            + "\r\nContent-Disposition: attachment; filename=\"z.gz\"\r\nContent-Type: text/plain\r\nContent-Length: 3"
            + "\r\nContent-Encoding: gzip\r\n\r\n\u{1}\u{2}\u{3}\r\n--I--"
        XCTAssertEqual(String(decoding: related.finished(), as: UTF8.self), expected)
    }

    func testSplitSendsDataOnlyAfterTheKnownGeneration() throws {
        let old = StoredAttachment(name: "old", contentType: "text/plain", length: 1, digest: "md5-o", revpos: 1, blobHash: "")
        let new = StoredAttachment(name: "new", contentType: "text/plain", length: 3, digest: "md5-n", revpos: 3,
                                   encoding: "gzip", encodedLength: 2, blobHash: "")
        XCTAssertNil(MultipartRelated.split([old, new], since: 3))
        let split = try XCTUnwrap(MultipartRelated.split([old, new], since: 2))
        XCTAssertEqual(split.withData.map(\.name), ["new"])
        XCTAssertEqual(String(decoding: split.json, as: UTF8.self),
                       #"{"old":{"content_type":"text/plain","revpos":1,"digest":"md5-o","length":1,"stub":true},"#
                       + #""new":{"content_type":"text/plain","revpos":3,"digest":"md5-n","length":3,"encoding":"gzip","encoded_length":2,"follows":true}}"#)
    }
}
