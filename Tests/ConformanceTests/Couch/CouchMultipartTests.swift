import Foundation
import XCTest
import Core

/// multipart/related document writes and the multipart answers that carry attachment data (spec §5.11):
/// CD-104, CD-106, CD-107, CD-108, CD-115.
final class CouchMultipartTests: CouchTestCase {
    /// The layouts checked here use a text/plain "hello" sent as is (`md5-XUFAKrxLKna5cZ2REBfFkg==`): with
    /// `couch.attachmentCompressionLevel` 0 it is stored as received. Gzip-stored attachments in multipart
    /// answers are CouchGzipFollowsTests'.
    override var environment: [String: String] { ["QUARTET_COUCH_ATTACHMENT_COMPRESSION_LEVEL": "0"] }
    typealias Part = MultipartTestBody.Part
    static let hello = "md5-XUFAKrxLKna5cZ2REBfFkg=="
    static let json = "Content-Type: application/json"

    /// The replicated document of CD-106 with attachment member `a.bin` as given.
    static func replicated(_ attachment: String) -> String {
        #"{"_id":"m","_rev":"1-\#(hex("a"))","_revisions":{"start":1,"ids":["\#(hex("a"))"]},"v":1,"_attachments":{"a.bin":\#(attachment)}}"#
    }

    static let aBin = #"{"follows":true,"length":5,"digest":"\#(hello)","content_type":"application/octet-stream","revpos":1}"#

    func putMultipart(_ path: String, _ parts: [Part], contentType: String = MultipartTestBody.contentType) throws -> TestResponse {
        try send("PUT", path, bytes: MultipartTestBody.build(parts), headers: [("Content-Type", contentType)])
    }

    func test_CD_106_replicatedMultipartPut() throws {
        let r = try putMultipart("/db/m?new_edits=false", [
            Part([Self.json], Self.replicated(Self.aBin)),
            Part(["Content-Disposition: attachment; filename=\"a.bin\"", "Content-Type: application/octet-stream",
                  "Content-Length: 5"], "hello"),
        ])
        XCTAssertEqual(r.status, 201, r.text)
        XCTAssertEqual(compact(r), #"{"ok":true,"id":"m","rev":"1-\#(Self.hex("a"))"}"#)
        let a = try send("GET", "/db/m/a.bin")
        XCTAssertEqual(a.status, 200)
        XCTAssertEqual(a.text, "hello")
        XCTAssertEqual(a.header("Content-Type"), "application/octet-stream")
        XCTAssertEqual(try get("/db/m")["_attachments"]?["a.bin"]?.serialized(),
                       #"{"content_type":"application/octet-stream","revpos":1,"digest":"\#(Self.hello)","length":5,"stub":true}"#)
        // An interactive multipart write on top: a new attachment gets the new generation, a stub keeps its own.
        let next = try putMultipart("/db/m", [
            Part([Self.json + "; charset=utf-8"],
                 #"{"_rev":"1-\#(Self.hex("a"))","v":2,"_attachments":{"a.bin":{"stub":true},"b.txt":{"follows":true,"content_type":"text/plain","length":3}}}"#),
            Part([], "abc"),
        ])
        XCTAssertEqual(next.status, 201, next.text)
        let doc = try get("/db/m")
        XCTAssertEqual(doc["v"]?.int64Value, 2)
        XCTAssertEqual(doc["_attachments"]?["a.bin"]?["revpos"]?.int64Value, 1)
        XCTAssertEqual(doc["_attachments"]?["b.txt"]?["revpos"]?.int64Value, 2)
        XCTAssertEqual(try send("GET", "/db/m/b.txt").text, "abc")
    }

    /// Each refusal leaves the database as it was.
    private func assertNothingStored(line: UInt = #line) throws {
        assertError(try send("GET", "/db/m"), 404, "not_found", "missing", line: line)
        XCTAssertEqual(try info()["doc_count"]?.int64Value, 0, line: line)
        XCTAssertEqual(try info()["update_seq"]?.int64Value, 0, line: line)
    }

    func test_CD_107_badPartsAreRefusedAndNothingIsStored() throws {
        let wrongDigest = Self.aBin.replacingOccurrences(of: Self.hello, with: "md5-AAAAAAAAAAAAAAAAAAAAAA==")
        assertError(try putMultipart("/db/m?new_edits=false", [Part([Self.json], Self.replicated(wrongDigest)), Part([], "hello")]),
                    400, "content_md5_mismatch", "Possible message corruption.")
        try assertNothingStored()
        assertError(try putMultipart("/db/m?new_edits=false", [Part([Self.json], Self.replicated(Self.aBin)), Part([], "hell")]),
                    400, "bad_request", "attachment shorter than expected")
        try assertNothingStored()
        assertError(try putMultipart("/db/m?new_edits=false", [Part([Self.json], Self.replicated(Self.aBin)), Part([], "hello!")]),
                    400, "bad_request", "attachment longer than expected")
        try assertNothingStored()
        assertError(try putMultipart("/db/m?new_edits=false", [Part(["Content-Type: text/plain"], Self.replicated(Self.aBin)),
                                                                Part([], "hello")]),
                    415, "bad_content_type", "Content-Type must be application/json")
        try assertNothingStored()
        // Malformed bodies: no close delimiter, parts missing or left over, a JSON part that is not JSON.
        var truncated = MultipartTestBody.build([Part([Self.json], Self.replicated(Self.aBin)), Part([], "hello")])
        truncated.removeLast(8)
        assertError(try send("PUT", "/db/m?new_edits=false", bytes: truncated, headers: [("Content-Type", MultipartTestBody.contentType)]),
                    400, "bad_request")
        assertError(try putMultipart("/db/m?new_edits=false", [Part([Self.json], Self.replicated(Self.aBin))]), 400, "bad_request")
        assertError(try putMultipart("/db/m?new_edits=false", [Part([Self.json], Self.replicated(Self.aBin)), Part([], "hello"),
                                                                Part([], "extra")]), 400, "bad_request")
        assertError(try putMultipart("/db/m", [Part([Self.json], "{"), Part([], "hello")]), 400, "bad_request", "invalid UTF-8 JSON")
        assertError(try putMultipart("/db/m?new_edits=false", [Part([Self.json], Self.replicated(#"{"follows":true,"encoding":"br"}"#)),
                                                                Part([], "hello")]),
                    415, "bad_content_type", "Only gzip and identity content-encodings are supported")
        try assertNothingStored()
        // Without a boundary the body is read as JSON (§2.3).
        assertError(try putMultipart("/db/m", [Part([Self.json], "{}")], contentType: "multipart/related"), 400, "bad_request",
                    "invalid UTF-8 JSON")
        try assertNothingStored()
    }

    func test_CD_108_partsMatchedByContentDispositionFilename() throws {
        let document = #"{"_attachments":{"one.txt":{"follows":true,"length":3,"content_type":"text/plain"},"two.txt":{"follows":true,"length":6,"content_type":"text/plain"}}}"#
        let r = try putMultipart("/db/pair", [
            Part([Self.json], document),
            Part(["Content-Disposition: attachment; filename=\"two.txt\""], "second"),
            Part(["Content-Disposition: attachment; filename=\"one.txt\""], "one"),
        ])
        XCTAssertEqual(r.status, 201, r.text)
        XCTAssertEqual(try send("GET", "/db/pair/one.txt").text, "one")
        XCTAssertEqual(try send("GET", "/db/pair/two.txt").text, "second")
        // The revision keeps the order of the `_attachments` members, not of the parts.
        XCTAssertEqual(try get("/db/pair")["_attachments"]?.objectValue?.keys, ["one.txt", "two.txt"])
    }

    func test_CD_104_attachmentsTrueAsMultipartRelated() throws {
        let r1 = try put("doc", #"{"v":1}"#)
        let up = try send("PUT", "/db/doc/a.txt?rev=\(r1)", bytes: Array("hello".utf8), headers: [("Content-Type", "text/plain")])
        let r2 = try XCTUnwrap(json(up)["rev"]?.stringValue)
        for accept in [[("Accept", "multipart/related, application/json")], []] {
            let r = try send("GET", "/db/doc?attachments=true", headers: accept)
            XCTAssertEqual(r.status, 200, r.text)
            let type = try XCTUnwrap(r.header("Content-Type"))
            XCTAssertTrue(type.hasPrefix("multipart/related; boundary=\""), type)
            XCTAssertEqual(r.header("Content-Length"), String(r.body.count), "the length is known up front")
            XCTAssertNil(r.header("Transfer-Encoding"))
            let parts = try XCTUnwrap(MultipartTestBody.parse(r.body, boundary: try XCTUnwrap(MultipartTestBody.boundary(of: type))))
            XCTAssertEqual(parts.count, 2)
            XCTAssertEqual(parts[0].headers, ["Content-Type: application/json"])
            XCTAssertEqual(JSONTestText.compact(parts[0].text),
                           #"{"_id":"doc","_rev":"\#(r2)","v":1,"_attachments":{"a.txt":{"content_type":"text/plain","revpos":2,"digest":"\#(Self.hello)","length":5,"follows":true}}}"#)
            XCTAssertEqual(parts[1].header("Content-Disposition"), "attachment; filename=\"a.txt\"")
            XCTAssertEqual(parts[1].header("Content-Type"), "text/plain")
            XCTAssertEqual(parts[1].header("Content-Length"), "5")
            XCTAssertEqual(parts[1].text, "hello")
        }
        // atts_since naming the revision that added a.txt: nothing to send, so plain JSON with a stub.
        let since = try send("GET", "/db/doc?atts_since=" + pct(#"["\#(r2)"]"#), headers: [("Accept", "multipart/related")])
        XCTAssertEqual(since.status, 200, since.text)
        XCTAssertEqual(since.header("Content-Type"), "application/json")
        XCTAssertEqual(json(since)["_attachments"]?["a.txt"]?["stub"]?.boolValue, true)
        // An unrelated revision: the data goes again.
        let unrelated = try send("GET", "/db/doc?atts_since=" + pct(#"["1-\#(Self.hex("f"))"]"#), headers: [("Accept", "multipart/related")])
        XCTAssertTrue(unrelated.header("Content-Type")?.hasPrefix("multipart/related") ?? false)
        // A client that does not accept multipart/related gets inline base64 (CD-102).
        let inline = try send("GET", "/db/doc?attachments=true", headers: [("Accept", "application/json")])
        XCTAssertEqual(json(inline)["_attachments"]?["a.txt"]?["data"]?.stringValue, "aGVsbG8=")
    }

    func test_CD_115_openRevsMultipartMixedWithNestedRelatedParts() throws {
        let plain = try put("c", #"{"v":1}"#)
        let withAtt = try put("c", #"{"_rev":"\#(plain)","v":2,"_attachments":{"n\"q.txt":{"content_type":"text/plain","data":"aGVsbG8="}}}"#)
        let missing = "9-\(Self.hex("9"))"
        for accept in [[("Accept", "multipart/mixed")], []] {
            let r = try send("GET", "/db/c?revs=true&open_revs=" + pct(#"["\#(plain)","\#(withAtt)","\#(missing)"]"#), headers: accept)
            XCTAssertEqual(r.status, 200, r.text)
            let type = try XCTUnwrap(r.header("Content-Type"))
            XCTAssertTrue(type.hasPrefix("multipart/mixed; boundary=\""), type)
            let parts = try XCTUnwrap(MultipartTestBody.parse(r.body, boundary: try XCTUnwrap(MultipartTestBody.boundary(of: type))))
            XCTAssertEqual(parts.count, 3)
            XCTAssertEqual(parts[0].headers, ["Content-Type: application/json"], "a revision without attachments: the bare type")
            XCTAssertEqual(JSONTestText.parse(parts[0].text)["_rev"]?.stringValue, plain)
            let nestedType = try XCTUnwrap(parts[1].header("Content-Type"))
            XCTAssertTrue(nestedType.hasPrefix("multipart/related; boundary=\""), nestedType)
            let nested = try XCTUnwrap(MultipartTestBody.parse(parts[1].content,
                                                                boundary: try XCTUnwrap(MultipartTestBody.boundary(of: nestedType))))
            XCTAssertEqual(nested.count, 2)
            let document = JSONTestText.parse(nested[0].text)
            XCTAssertEqual(document["_rev"]?.stringValue, withAtt)
            XCTAssertEqual(document["_revisions"]?["start"]?.int64Value, 2)
            XCTAssertEqual(document["_attachments"]?["n\"q.txt"]?["follows"]?.boolValue, true)
            XCTAssertEqual(document["_attachments"]?["n\"q.txt"]?["length"]?.int64Value, 5)
            XCTAssertEqual(nested[1].header("Content-Disposition"), #"attachment; filename="n\"q.txt""#)
            XCTAssertEqual(nested[1].text, "hello")
            XCTAssertEqual(parts[2].headers, [#"Content-Type: application/json; error="true""#])
            XCTAssertEqual(parts[2].text, #"{"missing":"\#(missing)"}"#)
        }
        // open_revs=all: every leaf of a conflicted document, one with an attachment and one without.
        let root = Self.hex("1"), a = Self.hex("a"), b = Self.hex("b")
        for (leaf, extra) in [(a, #","_attachments":{"x.txt":{"content_type":"text/plain","data":"aGVsbG8="}}"#), (b, "")] {
            let r = try send("PUT", "/db/k?new_edits=false",
                             body: #"{"_revisions":{"start":2,"ids":["\#(leaf)","\#(root)"]}\#(extra)}"#)
            XCTAssertEqual(r.status, 201, r.text)
        }
        for accept in [[("Accept", "multipart/mixed")], []] {
            let r = try send("GET", "/db/k?open_revs=all&revs=true", headers: accept)
            XCTAssertEqual(r.status, 200, r.text)
            let type = try XCTUnwrap(r.header("Content-Type"))
            XCTAssertTrue(type.hasPrefix("multipart/mixed; boundary=\""), type)
            let parts = try XCTUnwrap(MultipartTestBody.parse(r.body, boundary: try XCTUnwrap(MultipartTestBody.boundary(of: type))))
            XCTAssertEqual(parts.count, 2, r.text)
            guard parts.count == 2 else { continue }
            let nestedType = try XCTUnwrap(parts[0].header("Content-Type"))
            XCTAssertTrue(nestedType.hasPrefix("multipart/related; boundary=\""), nestedType)
            let nested = try XCTUnwrap(MultipartTestBody.parse(parts[0].content,
                                                                boundary: try XCTUnwrap(MultipartTestBody.boundary(of: nestedType))))
            XCTAssertEqual(nested.count, 2)
            let withAttachment = JSONTestText.parse(nested.first?.text ?? "")
            XCTAssertEqual(withAttachment["_rev"]?.stringValue, "2-\(a)")
            XCTAssertEqual(withAttachment["_revisions"]?["ids"]?[1]?.stringValue, root)
            XCTAssertEqual(withAttachment["_attachments"]?["x.txt"]?["follows"]?.boolValue, true)
            XCTAssertEqual(nested.last?.text, "hello")
            XCTAssertEqual(parts[1].headers, ["Content-Type: application/json"], "a leaf without attachments: the bare type")
            let plainLeaf = JSONTestText.parse(parts[1].text)
            XCTAssertEqual(plainLeaf["_rev"]?.stringValue, "2-\(b)")
            XCTAssertEqual(plainLeaf["_revisions"]?["start"]?.int64Value, 2)
        }

        // With atts_since at the revision that brought the attachment, it goes as a stub in a bare JSON part.
        let since = try send("GET", "/db/c?open_revs=" + pct(#"["\#(withAtt)"]"#) + "&atts_since=" + pct(#"["\#(withAtt)"]"#),
                             headers: [("Accept", "multipart/mixed")])
        let type = try XCTUnwrap(since.header("Content-Type"))
        let parts = try XCTUnwrap(MultipartTestBody.parse(since.body, boundary: try XCTUnwrap(MultipartTestBody.boundary(of: type))))
        XCTAssertEqual(parts.first?.headers, ["Content-Type: application/json"])
        XCTAssertEqual(JSONTestText.parse(parts.first?.text ?? "")["_attachments"]?["n\"q.txt"]?["stub"]?.boolValue, true)
    }
}

/// Limits of multipart/related writes: `couch.maxMultipartParts`, `couch.maxAttachmentSize` (§4.9, §5.11.1).
final class CouchMultipartLimitTests: CouchTestCase {
    override var environment: [String: String] {
        ["QUARTET_COUCH_MAX_MULTIPART_PARTS": "2", "QUARTET_COUCH_MAX_ATTACHMENT_SIZE": "8"]
    }

    func testPartCountAndAttachmentSizeLimits() throws {
        let one = #"{"_attachments":{"a":{"follows":true}}}"#
        let two = #"{"_attachments":{"a":{"follows":true},"b":{"follows":true}}}"#
        let ok = try send("PUT", "/db/one", bytes: MultipartTestBody.build([Part([CouchMultipartTests.json], one), Part([], "12345678")]),
                          headers: [("Content-Type", MultipartTestBody.contentType)])
        XCTAssertEqual(ok.status, 201, ok.text)
        assertError(try send("PUT", "/db/two", bytes: MultipartTestBody.build([Part([CouchMultipartTests.json], two), Part([], "1"), Part([], "2")]),
                             headers: [("Content-Type", MultipartTestBody.contentType)]), 413, "too_large")
        assertError(try send("PUT", "/db/big", bytes: MultipartTestBody.build([Part([CouchMultipartTests.json], one), Part([], "123456789")]),
                             headers: [("Content-Type", MultipartTestBody.contentType)]), 413, "attachment_too_large", "a")
        XCTAssertEqual(try info()["doc_count"]?.int64Value, 1)
    }

    typealias Part = MultipartTestBody.Part
}

/// JSON text helpers for parts of multipart answers.
enum JSONTestText {
    static func parse(_ text: String) -> JSON { (try? JSONParser.parse(Array(text.utf8))) ?? .null }
    static func compact(_ text: String) -> String { parse(text).serialized() }
}
