import Foundation
import XCTest
import Core

/// `follows` parts of a multipart/related `PUT` sent in identity encoding (spec §5.11.1, §4.7; CD-186 with
/// CD-106…CD-108): an attachment of a compressible type is stored gzip as when it comes inline or by a standalone
/// `PUT`, with CouchDB's `digest` (the MD5 of the gzip bytes) and `encoded_length`; a `digest` the client sends is
/// checked against the bytes it sent, as CouchDB's `with_stream` checks the identity MD5.
final class CouchCompressedFollowsTests: CouchTestCase {
    typealias Part = MultipartTestBody.Part
    static let json = "Content-Type: application/json"
    static let gzipHello = "md5-iMaiC8wqiFlD2NjLTemvCQ=="
    static let identityHello = "md5-XUFAKrxLKna5cZ2REBfFkg=="

    private func putMultipart(_ path: String, _ parts: [Part]) throws -> TestResponse {
        try send("PUT", path, bytes: MultipartTestBody.build(parts), headers: [("Content-Type", MultipartTestBody.contentType)])
    }

    private func digest(_ bytes: [UInt8]) -> String { "md5-" + Base64.encode(Crypto.md5(bytes)) }

    func test_CD_186_identityFollowsPartsOfCompressibleTypesAreStoredGzip() throws {
        let r = try putMultipart("/db/m", [
            Part([Self.json], #"{"v":1,"_attachments":{"a.txt":{"follows":true,"content_type":"text/plain","length":5,"digest":"\#(Self.identityHello)"},"b.bin":{"follows":true,"content_type":"application/octet-stream","length":5}}}"#),
            Part(["Content-Type: text/plain", "Content-Length: 5"], "hello"),
            Part([], "hello"),
        ])
        XCTAssertEqual(r.status, 201, r.text)
        // The same document written with inline data: the same stubs, so the same revision id (it hashes the
        // attachments' digests), which is CouchDB's.
        let inline = try put("i", #"{"v":1,"_attachments":{"a.txt":{"content_type":"text/plain","data":"aGVsbG8="},"b.bin":{"content_type":"application/octet-stream","data":"aGVsbG8="}}}"#)
        XCTAssertEqual(json(r)["rev"]?.stringValue, inline)
        let stubs = json(try send("GET", "/db/m?att_encoding_info=true"))["_attachments"]
        XCTAssertEqual(stubs?.serialized(), #"{"a.txt":{"content_type":"text/plain","revpos":1,"digest":"\#(Self.gzipHello)","length":5,"stub":true,"encoding":"gzip","encoded_length":25},"b.bin":{"content_type":"application/octet-stream","revpos":1,"digest":"\#(Self.identityHello)","length":5,"stub":true}}"#)
        XCTAssertEqual(stubs, json(try send("GET", "/db/i?att_encoding_info=true"))["_attachments"])
        // Read back decoded, or as stored by a client that takes gzip.
        XCTAssertEqual(try send("GET", "/db/m/a.txt").text, "hello")
        let raw = try send("GET", "/db/m/a.txt", headers: [("Accept-Encoding", "gzip")])
        XCTAssertEqual(raw.header("Content-Encoding"), "gzip")
        XCTAssertEqual(raw.body.count, 25)
        XCTAssertEqual(digest(raw.body), Self.gzipHello)
        XCTAssertEqual(try send("GET", "/db/m/b.bin").text, "hello")
        // A digest that is not the MD5 of the bytes sent (here the stored one) → 400, nothing stored.
        assertError(try putMultipart("/db/wrong", [
            Part([Self.json], #"{"_attachments":{"a.txt":{"follows":true,"content_type":"text/plain","digest":"\#(Self.gzipHello)"}}}"#),
            Part([], "hello"),
        ]), 400, "content_md5_mismatch")
        assertError(try send("GET", "/db/wrong"), 404, "not_found")
    }

    func test_CD_186_largeIdentityFollowsPartIsCompressedAsItStreams() throws {
        let text = Array(String(repeating: "Streaming a follows part through gzip. ", count: 12_000).utf8)
        let r = try putMultipart("/db/big?new_edits=false", [
            Part([Self.json], #"{"_rev":"1-\#(Self.hex("b"))","_revisions":{"start":1,"ids":["\#(Self.hex("b"))"]},"_attachments":{"page.html":{"follows":true,"content_type":"text/html; charset=utf-8","revpos":1,"length":\#(text.count),"digest":"\#(digest(text))"}}}"#),
            Part(["Content-Type: text/html", "Content-Length: \(text.count)"], text),
        ])
        XCTAssertEqual(r.status, 201, r.text)
        let stub = json(try send("GET", "/db/big?att_encoding_info=true"))["_attachments"]?["page.html"]
        XCTAssertEqual(stub?["length"]?.int64Value, Int64(text.count))
        XCTAssertEqual(stub?["encoding"]?.stringValue, "gzip")
        XCTAssertEqual(stub?["revpos"]?.int64Value, 1)
        // CouchDB's bytes: level 8 with zlib's defaults, so the digest is the MD5 of exactly this compression.
        let packed = try Compression.deflate(text, format: .gzip, level: 8)
        XCTAssertEqual(stub?["encoded_length"]?.int64Value, Int64(packed.count))
        XCTAssertEqual(stub?["digest"]?.stringValue, digest(packed))
        XCTAssertEqual(try send("GET", "/db/big/page.html").body, text)
        XCTAssertEqual(try send("GET", "/db/big/page.html", headers: [("Accept-Encoding", "gzip")]).body, packed)
    }

    func test_CD_108_partsMatchedByFilenameAcrossCompressibleAndOtherTypes() throws {
        // The first part belongs to `two.txt` by its filename but to `one.bin` by its position: which one is only
        // sure at the end, and each attachment still gets its own bytes in its own encoding.
        let r = try putMultipart("/db/pair", [
            Part([Self.json], #"{"_attachments":{"one.bin":{"follows":true,"content_type":"application/octet-stream","length":3},"two.txt":{"follows":true,"content_type":"text/plain","length":5}}}"#),
            Part(["Content-Disposition: attachment; filename=\"two.txt\""], "hello"),
            Part(["Content-Disposition: attachment; filename=\"one.bin\""], "one"),
        ])
        XCTAssertEqual(r.status, 201, r.text)
        let stubs = json(try send("GET", "/db/pair?att_encoding_info=true"))["_attachments"]
        XCTAssertEqual(stubs?["two.txt"]?["digest"]?.stringValue, Self.gzipHello)
        XCTAssertEqual(stubs?["two.txt"]?["encoding"]?.stringValue, "gzip")
        XCTAssertEqual(stubs?["one.bin"]?["digest"]?.stringValue, digest(Array("one".utf8)))
        XCTAssertNil(stubs?["one.bin"]?["encoding"])
        XCTAssertEqual(try send("GET", "/db/pair/two.txt").text, "hello")
        XCTAssertEqual(try send("GET", "/db/pair/one.bin").text, "one")
        // Without filenames the order decides, the other way round.
        let ordered = try putMultipart("/db/order", [
            Part([Self.json], #"{"_attachments":{"one.txt":{"follows":true,"content_type":"text/plain"},"two.bin":{"follows":true,"content_type":"application/octet-stream"}}}"#),
            Part([], "hello"),
            Part([], "two"),
        ])
        XCTAssertEqual(ordered.status, 201, ordered.text)
        let order = json(try send("GET", "/db/order?att_encoding_info=true"))["_attachments"]
        XCTAssertEqual(order?["one.txt"]?["digest"]?.stringValue, Self.gzipHello)
        XCTAssertEqual(order?["two.bin"]?["digest"]?.stringValue, digest(Array("two".utf8)))
        // A part that says it is gzip is stored as received whatever its type (CD-109).
        let gz = try Compression.deflate(Array("hello".utf8), format: .gzip, level: 1)
        let sent = try putMultipart("/db/sent", [
            Part([Self.json], #"{"_attachments":{"z.txt":{"follows":true,"content_type":"text/plain","length":5}}}"#),
            Part(["Content-Encoding: gzip"], gz),
        ])
        XCTAssertEqual(sent.status, 201, sent.text)
        let z = json(try send("GET", "/db/sent?att_encoding_info=true"))["_attachments"]?["z.txt"]
        XCTAssertEqual(z?["digest"]?.stringValue, digest(gz))
        XCTAssertEqual(z?["encoded_length"]?.int64Value, Int64(gz.count))
        XCTAssertEqual(try send("GET", "/db/sent/z.txt").text, "hello")
    }
}
