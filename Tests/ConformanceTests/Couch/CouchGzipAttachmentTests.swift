import Foundation
import XCTest
import Core

/// gzip-encoded attachments (spec §3.5, §4.7; CD-186 and the encoding side of CD-101…115): compressible types
/// stored compressed with CouchDB's digests, gzip uploads stored as received, `att_encoding_info`, and reads
/// that decode unless the client accepts gzip.
final class CouchGzipAttachmentTests: CouchTestCase {
    private let acceptJSON = [("Accept", "application/json")]

    private func gzip(_ bytes: [UInt8]) throws -> [UInt8] { try Compression.deflate(bytes, format: .gzip, level: 6) }

    private func digest(_ bytes: [UInt8]) -> String { "md5-" + Base64.encode(Crypto.md5(bytes)) }

    func test_CD_186_compressibleTypesAreStoredGzipWithCouchDBsDigest() throws {
        let r1 = try put("doc", #"{"_attachments":{"a.txt":{"content_type":"text/plain","data":"aGVsbG8="},"b.bin":{"content_type":"application/octet-stream","data":"aGVsbG8="},"c.json":{"content_type":"Application/JSON; charset=utf-8","data":"e30="}}}"#)
        // CouchDB 3.x stores a text/plain "hello" gzip-encoded (level 8) and digests those 25 bytes: this is the
        // digest a CouchDB server reports for it.
        let plain = json(try send("GET", "/db/doc"))["_attachments"]
        XCTAssertEqual(plain?["a.txt"]?["digest"]?.stringValue, "md5-iMaiC8wqiFlD2NjLTemvCQ==")
        XCTAssertEqual(plain?["a.txt"]?["length"]?.int64Value, 5)
        XCTAssertNil(plain?["a.txt"]?["encoding"], "encoding shows only with att_encoding_info")
        XCTAssertEqual(plain?["b.bin"]?["digest"]?.stringValue, "md5-XUFAKrxLKna5cZ2REBfFkg==", "octet-stream is stored as is")
        let info = try send("GET", "/db/doc?att_encoding_info=true")
        XCTAssertEqual(compact(info),
                       #"{"_id":"doc","_rev":"\#(r1)","_attachments":{"a.txt":{"content_type":"text/plain","revpos":1,"digest":"md5-iMaiC8wqiFlD2NjLTemvCQ==","length":5,"stub":true,"encoding":"gzip","encoded_length":25},"b.bin":{"content_type":"application/octet-stream","revpos":1,"digest":"md5-XUFAKrxLKna5cZ2REBfFkg==","length":5,"stub":true},"c.json":{"content_type":"Application/JSON; charset=utf-8","revpos":1,"digest":"\#(json(info)["_attachments"]?["c.json"]?["digest"]?.stringValue ?? "")","length":2,"stub":true,"encoding":"gzip","encoded_length":22}}}"#)
        // Reads decode: the attachment itself (no Content-MD5: the digest covers the gzip bytes) and inline data.
        let r = try send("GET", "/db/doc/a.txt")
        XCTAssertEqual(r.status, 200)
        XCTAssertEqual(r.text, "hello")
        XCTAssertEqual(r.header("Content-Length"), "5")
        XCTAssertNil(r.header("Content-Encoding"))
        XCTAssertNil(r.header("Content-MD5"))
        XCTAssertEqual(r.header("Accept-Ranges"), "none")
        XCTAssertEqual(r.header("ETag"), "\"iMaiC8wqiFlD2NjLTemvCQ==\"")
        let inline = json(try send("GET", "/db/doc?attachments=true", headers: acceptJSON))["_attachments"]
        XCTAssertEqual(inline?["a.txt"]?["data"]?.stringValue, "aGVsbG8=")
        XCTAssertNil(inline?["a.txt"]?["length"])
        XCTAssertEqual(inline?["c.json"]?["data"]?.stringValue, "e30=")
        // A client that accepts gzip gets the stored bytes as they are.
        let raw = try send("GET", "/db/doc/a.txt", headers: [("Accept-Encoding", "deflate, gzip;q=0.8")])
        XCTAssertEqual(raw.header("Content-Encoding"), "gzip")
        XCTAssertEqual(raw.body.count, 25)
        XCTAssertEqual(digest(raw.body), "md5-iMaiC8wqiFlD2NjLTemvCQ==")
        XCTAssertEqual(raw.header("Content-MD5"), "iMaiC8wqiFlD2NjLTemvCQ==")
        XCTAssertEqual(try Compression.inflate(raw.body, format: .gzip, maxOutput: 5), Array("hello".utf8))
        XCTAssertNil(try send("GET", "/db/doc/a.txt", headers: [("Accept-Encoding", "gzip;q=0, *")]).header("Content-Encoding"))
        XCTAssertEqual(try send("GET", "/db/doc/a.txt", headers: [("Accept-Encoding", "*")]).header("Content-Encoding"), "gzip")
        // HEAD: the decoded length without a body.
        let head = try send("HEAD", "/db/doc/a.txt")
        XCTAssertEqual(head.header("Content-Length"), "5")
        XCTAssertTrue(head.body.isEmpty)
        // A stub keeps the stored encoding into the next revision.
        let r2 = try put("doc", #"{"_rev":"\#(r1)","_attachments":{"a.txt":{"stub":true}}}"#)
        XCTAssertEqual(json(try send("GET", "/db/doc?att_encoding_info=true"))["_attachments"]?["a.txt"]?["encoding"]?.stringValue, "gzip")
        XCTAssertEqual(try send("GET", "/db/doc/a.txt?rev=\(r2)").text, "hello")
    }

    func test_CD_186_standalonePutOfCompressibleTypesStreamsThroughGzip() throws {
        // Large enough to be spooled to a file: compressed piece by piece into the blob store.
        let text = Array(String(repeating: "All work and no play. ", count: 20_000).utf8)
        let r = try send("PUT", "/db/big/page.html", bytes: text, headers: [("Content-Type", "text/html")])
        XCTAssertEqual(r.status, 201, r.text)
        let stub = json(try send("GET", "/db/big?att_encoding_info=true"))["_attachments"]?["page.html"]
        XCTAssertEqual(stub?["length"]?.int64Value, Int64(text.count))
        XCTAssertEqual(stub?["encoding"]?.stringValue, "gzip")
        let encoded = Int(stub?["encoded_length"]?.int64Value ?? 0)
        XCTAssertGreaterThan(encoded, 0)
        XCTAssertLessThan(encoded, text.count / 10)
        XCTAssertEqual(try send("GET", "/db/big/page.html").body, text)
        let raw = try send("GET", "/db/big/page.html", headers: [("Accept-Encoding", "gzip")])
        XCTAssertEqual(raw.body.count, encoded)
        XCTAssertEqual(digest(raw.body), stub?["digest"]?.stringValue)
        // The same bytes compressed here at CouchDB's level give the same digest: it depends on the bytes only.
        XCTAssertEqual(digest(try Compression.deflate(text, format: .gzip, level: 8)), stub?["digest"]?.stringValue)
    }

    func test_CD_186_gzipUploadIsStoredAsReceived() throws {
        let r1 = try put("doc", "{}")
        let text = Array(String(repeating: "gzip me ", count: 100).utf8)
        let gz = try gzip(text)
        let r = try send("PUT", "/db/doc/notes.txt?rev=\(r1)", bytes: gz,
                         headers: [("Content-Type", "text/plain"), ("Content-Encoding", "gzip"),
                                   ("Content-MD5", Base64.encode(Crypto.md5(gz)))])
        XCTAssertEqual(r.status, 201, r.text)
        let info = json(try send("GET", "/db/doc?att_encoding_info=true"))["_attachments"]?["notes.txt"]
        XCTAssertEqual(info?["encoding"]?.stringValue, "gzip")
        XCTAssertEqual(info?["encoded_length"]?.int64Value, Int64(gz.count))
        XCTAssertEqual(info?["length"]?.int64Value, Int64(text.count))
        XCTAssertEqual(info?["digest"]?.stringValue, digest(gz), "the digest covers the gzip bytes as received")
        let raw = try send("GET", "/db/doc/notes.txt", headers: [("Accept-Encoding", "gzip")])
        XCTAssertEqual(raw.body, gz)
        XCTAssertEqual(raw.header("Content-Length"), String(gz.count))
        XCTAssertEqual(try send("GET", "/db/doc/notes.txt").body, text)
        // An octet-stream upload in gzip is stored gzip too: the encoding is the client's.
        let r2 = json(r)["rev"]?.stringValue ?? ""
        let bin = try send("PUT", "/db/doc/x.bin?rev=\(r2)", bytes: try gzip([1, 2, 3]),
                           headers: [("Content-Type", "application/octet-stream"), ("Content-Encoding", "gzip")])
        XCTAssertEqual(bin.status, 201)
        XCTAssertEqual(try send("GET", "/db/doc/x.bin").body, [1, 2, 3])
        // Data that is not gzip → 400; a wrong Content-MD5 → 400; nothing stored either time.
        let r3 = json(bin)["rev"]?.stringValue ?? ""
        assertError(try send("PUT", "/db/doc/bad.txt?rev=\(r3)", bytes: Array("plain".utf8),
                             headers: [("Content-Type", "text/plain"), ("Content-Encoding", "gzip")]),
                    400, "bad_request", "Attachment data is not properly gzipped.")
        assertError(try send("PUT", "/db/doc/bad.txt?rev=\(r3)", bytes: gz,
                             headers: [("Content-Encoding", "gzip"), ("Content-MD5", Base64.encode(Crypto.md5(text)))]),
                    400, "content_md5_mismatch", "Possible message corruption.")
        XCTAssertEqual(try get("/db/doc")["_rev"]?.stringValue, r3)
    }

    func test_CD_101_stubsAndEncodingAcrossWriteForms() throws {
        // _bulk_docs inline data and a replicated write (new_edits=false) are stored gzip like any other write.
        let bulk = try send("POST", "/db/_bulk_docs", body: #"{"docs":[{"_id":"a","_attachments":{"t.txt":{"content_type":"text/plain","data":"aGVsbG8="}}}]}"#)
        XCTAssertEqual(bulk.status, 201)
        XCTAssertEqual(json(try send("GET", "/db/a"))["_attachments"]?["t.txt"]?["digest"]?.stringValue, "md5-iMaiC8wqiFlD2NjLTemvCQ==")
        let rep = try send("PUT", "/db/r?new_edits=false", body: #"{"_rev":"1-\#(Self.hex("a"))","_attachments":{"t.txt":{"content_type":"text/plain","revpos":1,"data":"aGVsbG8="}}}"#)
        XCTAssertEqual(rep.status, 201, rep.text)
        let stub = json(try send("GET", "/db/r?att_encoding_info=true"))["_attachments"]?["t.txt"]
        XCTAssertEqual(stub?["encoded_length"]?.int64Value, 25)
        XCTAssertEqual(try send("GET", "/db/r/t.txt").text, "hello")
        // open_revs with attachments=true decodes inline data too.
        let open = json(try send("GET", "/db/r?open_revs=all&attachments=true", headers: acceptJSON))
        XCTAssertEqual(open[0]?["ok"]?["_attachments"]?["t.txt"]?["data"]?.stringValue, "aGVsbG8=")
        // …and shows the encoding of stubs when asked.
        let info = json(try send("GET", "/db/r?open_revs=all&att_encoding_info=true", headers: acceptJSON))
        XCTAssertEqual(info[0]?["ok"]?["_attachments"]?["t.txt"]?["encoding"]?.stringValue, "gzip")
        XCTAssertNil(json(try send("GET", "/db/r?open_revs=all", headers: acceptJSON))[0]?["ok"]?["_attachments"]?["t.txt"]?["encoding"])
    }
}

/// Compression turned off (`couch.attachmentCompressionLevel` 0): the spec's first-phase behaviour.
final class CouchUncompressedAttachmentTests: CouchTestCase {
    override var environment: [String: String] { ["QUARTET_COUCH_ATTACHMENT_COMPRESSION_LEVEL": "0"] }

    func test_CD_186_levelZeroStoresAsReceived() throws {
        try put("doc", #"{"_attachments":{"a.txt":{"content_type":"text/plain","data":"aGVsbG8="}}}"#)
        let stub = json(try send("GET", "/db/doc?att_encoding_info=true"))["_attachments"]?["a.txt"]
        XCTAssertEqual(stub?["digest"]?.stringValue, "md5-XUFAKrxLKna5cZ2REBfFkg==")
        XCTAssertNil(stub?["encoding"])
        let r = try send("GET", "/db/doc/a.txt", headers: [("Accept-Encoding", "gzip")])
        XCTAssertNil(r.header("Content-Encoding"))
        XCTAssertEqual(r.header("Accept-Ranges"), "bytes")
    }
}

/// A gzip upload that inflates past `couch.maxAttachmentSize` (CD-097's limit applied to the decoded length).
final class CouchGzipAttachmentLimitTests: CouchTestCase {
    override var environment: [String: String] { ["QUARTET_COUCH_MAX_ATTACHMENT_SIZE": "100000"] }

    func test_CD_186_gzipBombUploadIsRefused() throws {
        let r1 = try put("doc", "{}")
        let bomb = try Compression.deflate([UInt8](repeating: 0, count: 10 << 20), format: .gzip, level: 9)
        XCTAssertLessThan(bomb.count, 100_000)
        assertError(try send("PUT", "/db/doc/z.bin?rev=\(r1)", bytes: bomb,
                             headers: [("Content-Type", "application/octet-stream"), ("Content-Encoding", "gzip")]),
                    413, "attachment_too_large", "z.bin")
        XCTAssertEqual(try get("/db/doc")["_rev"]?.stringValue, r1)
    }
}

/// A gzip `follows` part of a multipart/related `PUT`, as the CouchDB replicator pushes attachments its source
/// stores compressed (spec §4.7, CD-109).
final class CouchGzipFollowsTests: CouchTestCase {
    func test_CD_109_gzipFollowsAttachmentIsServedStoredOrDecoded() throws {
        let text = Array(String(repeating: "a compressed attachment ", count: 40).utf8)
        let gz = try Compression.deflate(text, format: .gzip, level: 8)
        let digest = "md5-" + Base64.encode(Crypto.md5(gz))
        let document = #"{"_id":"m","_rev":"1-\#(Self.hex("a"))","_revisions":{"start":1,"ids":["\#(Self.hex("a"))"]},"_attachments":{"t.txt":{"follows":true,"content_type":"text/plain","revpos":1,"digest":"\#(digest)","encoding":"gzip","encoded_length":\#(gz.count),"length":\#(text.count)}}}"#
        let body = MultipartTestBody.build([
            MultipartTestBody.Part(["Content-Type: application/json"], document),
            MultipartTestBody.Part(["Content-Disposition: attachment; filename=\"t.txt\"", "Content-Type: text/plain",
                                    "Content-Encoding: gzip", "Content-Length: \(gz.count)"], gz),
        ])
        let r = try send("PUT", "/db/m?new_edits=false", bytes: body, headers: [("Content-Type", MultipartTestBody.contentType)])
        XCTAssertEqual(r.status, 201, r.text)
        // With Accept-Encoding: gzip, the N stored bytes as they came; without, the M decoded bytes.
        let stored = try send("GET", "/db/m/t.txt", headers: [("Accept-Encoding", "gzip")])
        XCTAssertEqual(stored.status, 200)
        XCTAssertEqual(stored.header("Content-Encoding"), "gzip")
        XCTAssertEqual(stored.header("Content-Length"), String(gz.count))
        XCTAssertEqual(stored.body, gz)
        let decoded = try send("GET", "/db/m/t.txt")
        XCTAssertNil(decoded.header("Content-Encoding"))
        XCTAssertEqual(decoded.header("Content-Length"), String(text.count))
        XCTAssertEqual(decoded.body, text)
        // attachments=true as JSON: decoded base64 and no length; the stub with att_encoding_info names both lengths.
        let inline = json(try send("GET", "/db/m?attachments=true", headers: [("Accept", "application/json")]))
        XCTAssertEqual(inline["_attachments"]?["t.txt"]?["data"]?.stringValue, Base64.encode(text))
        XCTAssertEqual(inline["_attachments"]?["t.txt"]?["digest"]?.stringValue, digest)
        let stub = json(try send("GET", "/db/m?att_encoding_info=true"))["_attachments"]?["t.txt"]
        XCTAssertEqual(stub?["length"]?.int64Value, Int64(text.count))
        XCTAssertEqual(stub?["encoded_length"]?.int64Value, Int64(gz.count))
        XCTAssertEqual(stub?["encoding"]?.stringValue, "gzip")
        // A multipart/related answer sends it as stored: `encoding` and `encoded_length`, a gzip part.
        let related = try send("GET", "/db/m?attachments=true", headers: [("Accept", "multipart/related")])
        let type = related.header("Content-Type") ?? ""
        let parts = MultipartTestBody.boundary(of: type).flatMap { MultipartTestBody.parse(related.body, boundary: $0) } ?? []
        XCTAssertEqual(parts.count, 2, type)
        let follows = (try? JSONParser.parse(parts.first?.content ?? []))?["_attachments"]?["t.txt"]
        XCTAssertEqual(follows?["encoding"]?.stringValue, "gzip")
        XCTAssertEqual(follows?["encoded_length"]?.int64Value, Int64(gz.count))
        XCTAssertEqual(follows?["length"]?.int64Value, Int64(text.count))
        XCTAssertEqual(parts.last?.header("Content-Encoding"), "gzip")
        XCTAssertEqual(parts.last?.content, gz)
    }
}
