import Foundation
import XCTest
import Core

/// Standalone attachment `PUT` and `DELETE` (spec §3.5.3, §3.5.4, §4.7): CD-089, CD-091, CD-092, CD-094,
/// CD-095, CD-096, CD-098.
final class CouchAttachmentWriteTests: CouchTestCase {
    /// The checklist rows here give identity digests (`md5-XUFAKrxLKna5cZ2REBfFkg==` for a text/plain "hello"):
    /// with `couch.attachmentCompressionLevel` 0 every attachment is stored as received. The default, compressing
    /// text types as CouchDB does, is CouchGzipAttachmentTests'.
    override var environment: [String: String] { ["QUARTET_COUCH_ATTACHMENT_COMPRESSION_LEVEL": "0"] }
    private func putAttachment(_ path: String, _ bytes: [UInt8], type: String = "text/plain",
                               headers: [(String, String)] = []) throws -> TestResponse {
        try send("PUT", path, bytes: bytes, headers: headers + [("Content-Type", type)])
    }

    func test_CD_089_putAnAttachmentOnARevision() throws {
        let r1 = try put("doc", #"{"v":1}"#)
        let r = try putAttachment("/db/doc/a.txt?rev=\(r1)", Array("hello".utf8))
        XCTAssertEqual(r.status, 201, r.text)
        XCTAssertEqual(json(r)["ok"]?.boolValue, true)
        XCTAssertEqual(json(r)["id"]?.stringValue, "doc")
        let r2 = try XCTUnwrap(json(r)["rev"]?.stringValue)
        XCTAssertTrue(r2.hasPrefix("2-"), r2)
        XCTAssertTrue(r.header("Location")?.hasSuffix("/doc/a.txt") == true, r.header("Location") ?? "no Location")
        let doc = try get("/db/doc")
        XCTAssertEqual(doc["_rev"]?.stringValue, r2)
        XCTAssertEqual(doc["v"]?.int64Value, 1, "the parent's body is kept")
        XCTAssertEqual(doc["_attachments"]?.serialized(),
                       #"{"a.txt":{"content_type":"text/plain","revpos":2,"digest":"md5-XUFAKrxLKna5cZ2REBfFkg==","length":5,"stub":true}}"#)
        XCTAssertEqual(try send("GET", "/db/doc/a.txt").text, "hello")
        // A second attachment goes first; the first keeps its revpos; If-Match names the revision too.
        let r3 = try putAttachment("/db/doc/b.bin", [0, 1, 2], type: "application/octet-stream", headers: [("If-Match", "\"\(r2)\"")])
        XCTAssertEqual(r3.status, 201, r3.text)
        let atts = try get("/db/doc")["_attachments"]
        guard case .object(let members)? = atts else { return XCTFail("no _attachments") }
        XCTAssertEqual(members.map(\.key), ["b.bin", "a.txt"])
        XCTAssertEqual(atts?["a.txt"]?["revpos"]?.int64Value, 2)
        XCTAssertEqual(atts?["b.bin"]?["revpos"]?.int64Value, 3)
        XCTAssertEqual(try send("GET", "/db/doc/b.bin").body, [0, 1, 2])
        // A body large enough to be spooled to a file is streamed to the blob store with the same digest.
        let big = (0..<1_500_000).map { UInt8($0 % 251) }
        let r4 = try putAttachment("/db/doc/big", big, type: "application/octet-stream",
                                   headers: [("If-Match", json(r3)["rev"]?.stringValue ?? "")])
        XCTAssertEqual(r4.status, 201, r4.text)
        XCTAssertEqual(try get("/db/doc")["_attachments"]?["big"]?["digest"]?.stringValue,
                       "md5-" + Base64.encode(Crypto.md5(big)))
        XCTAssertEqual(try send("GET", "/db/doc/big").body, big)
    }

    func test_CD_091_putWithoutRevision() throws {
        try put("live", "{}")
        assertError(try putAttachment("/db/live/a.txt", Array("x".utf8)), 409, "conflict", "Document update conflict.")
        let r = try putAttachment("/db/fresh/a.txt", Array("hello".utf8))
        XCTAssertEqual(r.status, 201, r.text)
        XCTAssertTrue(json(r)["rev"]?.stringValue?.hasPrefix("1-") == true, r.text)
        let doc = try get("/db/fresh")
        XCTAssertEqual(doc.serialized(),
                       #"{"_id":"fresh","_rev":"\#(json(r)["rev"]?.stringValue ?? "")","_attachments":{"a.txt":{"content_type":"text/plain","revpos":1,"digest":"md5-XUFAKrxLKna5cZ2REBfFkg==","length":5,"stub":true}}}"#)
        // A deleted document is re-created as a child of its tombstone.
        let d1 = try put("gone", "{}")
        XCTAssertEqual(try send("DELETE", "/db/gone?rev=\(d1)").status, 200)
        let again = try putAttachment("/db/gone/a.txt", Array("x".utf8))
        XCTAssertEqual(again.status, 201, again.text)
        XCTAssertTrue(json(again)["rev"]?.stringValue?.hasPrefix("3-") == true, again.text)
    }

    func test_CD_092_unknownAndStaleRevisions() throws {
        let r1 = try put("doc", "{}")
        assertError(try putAttachment("/db/doc/a.txt?rev=1-\(Self.hex("a"))", Array("x".utf8)), 409, "not_found", "missing_rev")
        assertError(try putAttachment("/db/nosuch/a.txt?rev=1-\(Self.hex("a"))", Array("x".utf8)), 409, "not_found", "missing_rev")
        let r2 = try put("doc", #"{"_rev":"\#(r1)","v":2}"#)
        let after = try info()["update_seq"]
        assertError(try putAttachment("/db/doc/a.txt?rev=\(r1)", Array("x".utf8)), 409, "conflict")
        assertError(try putAttachment("/db/doc/a.txt?rev=abc", Array("x".utf8)), 400, "bad_request", "Invalid rev format")
        assertError(try putAttachment("/db/doc/a.txt?rev=\(r2)", Array("x".utf8), headers: [("If-Match", "\"\(r1)\"")]),
                    400, "bad_request")
        XCTAssertEqual(try get("/db/doc")["_rev"]?.stringValue, r2)
        XCTAssertNil(try get("/db/doc")["_attachments"])
        XCTAssertEqual(try info()["update_seq"]?.serialized(), after?.serialized(), "nothing stored by the refusals")
    }

    func test_CD_094_attachmentNames() throws {
        let r1 = try put("doc", "{}")
        assertError(try putAttachment("/db/doc/_bad?rev=\(r1)", Array("x".utf8)), 400, "bad_request",
                    "Attachment name '_bad' starts with prohibited character '_'")
        assertError(try putAttachment("/db/doc/%FF?rev=\(r1)", Array("x".utf8)), 400, "bad_request",
                    "Attachment name is not UTF-8 encoded")
        let r = try putAttachment("/db/doc/dir/file.txt?rev=\(r1)", Array("nested".utf8))
        XCTAssertEqual(r.status, 201, r.text)
        XCTAssertNotNil(try get("/db/doc")["_attachments"]?["dir/file.txt"])
        XCTAssertEqual(try send("GET", "/db/doc/dir/file.txt").text, "nested")
        XCTAssertEqual(try send("GET", "/db/doc/dir%2Ffile.txt").text, "nested")
        // Design documents take attachments at `/_design/{name}/{att}` the same way.
        let d1 = try put("_design/app", "{}")
        let design = try putAttachment("/db/_design/app/index.html?rev=\(d1)", Array("<p>".utf8), type: "text/html")
        XCTAssertEqual(design.status, 201, design.text)
        XCTAssertTrue(design.header("Location")?.hasSuffix("/_design/app/index.html") == true, design.header("Location") ?? "")
        XCTAssertEqual(try send("GET", "/db/_design/app/index.html").text, "<p>")
    }

    func test_CD_095_pathLikeNamesAreOpaqueKeys() throws {
        let r1 = try put("doc", "{}")
        let payload = Array("not a password file".utf8)
        let r = try putAttachment("/db/doc/..%2F..%2Fetc%2Fpasswd?rev=\(r1)", payload)
        XCTAssertEqual(r.status, 201, r.text)
        XCTAssertNotNil(try get("/db/doc")["_attachments"]?["../../etc/passwd"])
        XCTAssertEqual(try send("GET", "/db/doc/..%2F..%2Fetc%2Fpasswd").body, payload)
        // The bytes live only in the blob store, under their SHA-256; no path was made from the name, inside the
        // data directory or next to it.
        let data = server.dataDirectory
        let hash = Hex.encode(Crypto.sha256(payload))
        var holders: [String] = []
        let walker = try XCTUnwrap(FileManager.default.enumerator(atPath: data.path))
        while let relative = walker.nextObject() as? String {
            XCTAssertFalse(relative.split(separator: "/").contains { $0 == "etc" || $0 == "passwd" }, relative)
            if FileManager.default.contents(atPath: data.path + "/" + relative).map({ [UInt8]($0) }) == payload {
                holders.append(relative)
            }
        }
        XCTAssertEqual(holders, ["blobs/\(hash.prefix(2))/\(hash.dropFirst(2).prefix(2))/\(hash)"])
        let beside = try FileManager.default.contentsOfDirectory(atPath: data.deletingLastPathComponent().path)
        XCTAssertFalse(beside.contains("passwd"), "\(beside)")
    }

    func test_CD_096_contentMD5IsChecked() throws {
        let r1 = try put("doc", "{}")
        let wrong = Base64.encode(Crypto.md5(Array("other".utf8)))
        assertError(try putAttachment("/db/doc/a.txt?rev=\(r1)", Array("hello".utf8), headers: [("Content-MD5", wrong)]),
                    400, "content_md5_mismatch", "Possible message corruption.")
        XCTAssertEqual(try get("/db/doc")["_rev"]?.stringValue, r1)
        let right = "XUFAKrxLKna5cZ2REBfFkg=="
        XCTAssertEqual(try putAttachment("/db/doc/a.txt?rev=\(r1)", Array("hello".utf8), headers: [("Content-MD5", right)]).status, 201)
    }

    func test_CD_098_deleteAnAttachment() throws {
        let r1 = try put("doc", #"{"v":1,"_attachments":{"a.txt":{"content_type":"text/plain","data":"aGVsbG8="},"b":{"data":"eA=="}}}"#)
        assertError(try send("DELETE", "/db/doc/a.txt"), 409, "conflict")
        assertError(try send("DELETE", "/db/doc/nosuch"), 404, "not_found", "Document is missing attachment")
        assertError(try send("DELETE", "/db/doc/nosuch?rev=\(r1)"), 404, "not_found", "Document is missing attachment")
        assertError(try send("DELETE", "/db/doc/a.txt?rev=1-\(Self.hex("b"))"), 409, "not_found", "missing_rev")
        assertError(try send("DELETE", "/db/nodoc/a.txt"), 404, "not_found", "missing")
        let r = try send("DELETE", "/db/doc/a.txt?rev=\(r1)")
        XCTAssertEqual(r.status, 200, r.text)
        XCTAssertEqual(json(r)["ok"]?.boolValue, true)
        let r2 = try XCTUnwrap(json(r)["rev"]?.stringValue)
        XCTAssertTrue(r2.hasPrefix("2-"))
        let doc = try get("/db/doc")
        XCTAssertEqual(doc["v"]?.int64Value, 1)
        XCTAssertNil(doc["_attachments"]?["a.txt"])
        XCTAssertEqual(doc["_attachments"]?["b"]?["revpos"]?.int64Value, 1)
        assertError(try send("GET", "/db/doc/a.txt"), 404, "not_found", "Document is missing attachment")
        XCTAssertEqual(try send("GET", "/db/doc/a.txt?rev=\(r1)").text, "hello", "the old revision keeps it")
        assertError(try send("DELETE", "/db/doc/b?rev=\(r1)"), 409, "conflict")
    }
}

/// `couch.maxAttachmentSize` and content encodings of a standalone `PUT` (CD-097).
final class CouchAttachmentLimitTests: CouchTestCase {
    override var environment: [String: String] { ["QUARTET_COUCH_MAX_ATTACHMENT_SIZE": "1000"] }

    func test_CD_097_sizeLimitAndEncodings() throws {
        let r1 = try put("doc", "{}")
        let big = [UInt8](repeating: 7, count: 1001)
        assertError(try send("PUT", "/db/doc/big?rev=\(r1)", bytes: big, contentType: "application/octet-stream"),
                    413, "attachment_too_large", "big")
        assertError(try send("PUT", "/db/doc/x?rev=\(r1)", bytes: [1], headers: [("Content-Encoding", "br")]),
                    415, "bad_content_type", "Only gzip and identity content-encodings are supported")
        XCTAssertEqual(try get("/db/doc")["_rev"]?.stringValue, r1)
        // A body large enough to be spooled to disk as it arrives, refused the same way; no temporary file of
        // either refusal stays behind (request spool files in `<data>/tmp`, blob store temp files).
        let huge = [UInt8](repeating: 7, count: 600_000)
        assertError(try send("PUT", "/db/doc/huge?rev=\(r1)", bytes: huge, contentType: "application/octet-stream"),
                    413, "attachment_too_large", "huge")
        XCTAssertEqual(try get("/db/doc")["_rev"]?.stringValue, r1)
        let deadline = Date().addingTimeInterval(5)
        while !temporaryFiles().isEmpty, Date() < deadline { usleep(50_000) }
        XCTAssertEqual(temporaryFiles(), [])
        XCTAssertEqual(try send("PUT", "/db/doc/ok?rev=\(r1)", bytes: [UInt8](repeating: 7, count: 1000),
                                contentType: "application/octet-stream").status, 201)
    }

    /// Regular files in the server's temporary directories: the HTTP server's body spool (`<data>/tmp`) and
    /// anything under the blob store whose name marks it temporary.
    private func temporaryFiles() -> [String] {
        let data = server.dataDirectory.path
        var found: [String] = []
        for (root, onlyTemp) in [(data + "/tmp", false), (data + "/blobs", true)] {
            guard let walker = FileManager.default.enumerator(atPath: root) else { continue }
            while let relative = walker.nextObject() as? String {
                var isDirectory: ObjCBool = false
                guard FileManager.default.fileExists(atPath: root + "/" + relative, isDirectory: &isDirectory),
                      !isDirectory.boolValue else { continue }
                if !onlyTemp || relative.hasPrefix("tmp/") || relative.hasSuffix(".tmp") { found.append(root + "/" + relative) }
            }
        }
        return found
    }
}

/// Conditional reads of an attachment (the attachment part of CD-183).
final class CouchAttachmentConditionalTests: CouchTestCase {
    func test_CD_183_attachmentIfNoneMatch() throws {
        try put("doc", #"{"_attachments":{"a.txt":{"content_type":"text/plain","data":"aGVsbG8="}}}"#)
        // text/plain is stored gzip-encoded: the ETag is the digest of the stored bytes, as on CouchDB.
        let etag = "\"iMaiC8wqiFlD2NjLTemvCQ==\""
        let hit = try send("GET", "/db/doc/a.txt", headers: [("If-None-Match", etag)])
        XCTAssertEqual(hit.status, 304)
        XCTAssertEqual(hit.header("ETag"), etag)
        XCTAssertTrue(hit.body.isEmpty)
        let stale = try send("GET", "/db/doc/a.txt", headers: [("If-None-Match", "\"1B2M2Y8AsgTpgAmY7PhCfg==\"")])
        XCTAssertEqual(stale.status, 200)
        XCTAssertEqual(stale.text, "hello")
    }
}
