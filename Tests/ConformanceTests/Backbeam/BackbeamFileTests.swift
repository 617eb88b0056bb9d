import Foundation
import XCTest
import Core

/// File objects: upload, versions, fields and downloads, BB-095 … BB-108.
final class BackbeamFileTests: BackbeamTestCase {
    var photo: [UInt8] { (try? ImageFixtures.bytes("photo-800x600.jpg")) ?? [] }

    /// Uploads `bytes` as `name` and returns the new file's id.
    func uploadFile(_ name: String = "photo.jpg", type: String? = "image/jpeg", bytes: [UInt8]? = nil,
                    params: [(String, [String])] = [], file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let r = try api.upload(params, file: BBFilePart(filename: name, contentType: type, bytes: bytes ?? photo))
        XCTAssertEqual(r.status, 201, r.text, file: file, line: line)
        return r.id
    }

    func test_BB_095_uploadImage() throws {
        let r = try api.upload(file: BBFilePart(filename: "photo.jpg", contentType: "image/jpeg", bytes: photo))
        XCTAssertEqual(r.status, 201, r.text)
        XCTAssertEqual(r.apiStatus, "Success")
        XCTAssertNotNil(r.id.range(of: "^[A-Za-z0-9]{12}$", options: .regularExpression), r.id)
        let o = try XCTUnwrap(r.main)
        XCTAssertEqual(o["type"], .string("file"))
        XCTAssertEqual(o["version#n"]?.numberValue?.text, "1")
        XCTAssertEqual(o["filename#t"], .string("photo.jpg"))
        XCTAssertEqual(o["mime#t"], .string("image/jpeg"))
        XCTAssertEqual(o["size#n"]?.int64Value, Int64(photo.count))
        XCTAssertEqual(o["width#n"]?.numberValue?.text, "800")
        XCTAssertEqual(o["height#n"]?.numberValue?.text, "600")
        XCTAssertEqual(o["title#t"], .string("photo.jpg"))
        // The stored object reads back the same through the data endpoint.
        XCTAssertEqual(try api.send("GET", "/data/file/\(r.id)").main?["size#n"]?.int64Value, Int64(photo.count))
        // A part without a content type gets Backbeam's guess from the extension; without a name, noname.dat.
        let guessed = try api.upload(file: BBFilePart(filename: "song.mp3", contentType: nil, bytes: [1, 2, 3]))
        XCTAssertEqual(guessed.main?["mime#t"], .string("audio/mpeg3"), guessed.text)
        XCTAssertNil(guessed.main?["width#n"])
        let unnamed = try api.upload(file: BBFilePart(filename: nil, contentType: nil, bytes: [1, 2, 3]))
        XCTAssertEqual(unnamed.main?["filename#t"], .string("noname.dat"), unnamed.text)
        XCTAssertEqual(unnamed.main?["mime#t"], .string("application/octet-stream"))
    }

    func test_BB_095_uploadUnderAStrictSchema() throws {
        // `file` is predefined: a strict schema that declares only an app field of it still takes uploads.
        let strict = try BackbeamServer(demoSchema: #"{"strict":true,"entities":{"file":{"fields":{"album":"t"}}}}"#)
        defer { strict.stop() }
        let r = try strict.client().upload(p(("set-album", "Summer")),
                                           file: BBFilePart(filename: "photo.jpg", contentType: "image/jpeg", bytes: photo))
        XCTAssertEqual(r.status, 201, r.text)
        XCTAssertEqual(r.main?["album#t"], .string("Summer"))
        XCTAssertEqual(r.main?["width#n"]?.int64Value, 800)
        XCTAssertEqual(r.main?["title#t"], .string("photo.jpg"))
        assertError(try strict.client().upload(p(("set-other", "x")), file: BBFilePart(filename: "a.jpg", contentType: "image/jpeg", bytes: photo)),
                    400, "InvalidParameters")
    }

    func test_BB_096_uploadRequestShapesOfTheSDKs() throws {
        let a = try create("tag", p(("set-name", "a")))
        let b = try create("tag", p(("set-name", "b")))
        // iOS: no auth, the commands (an add- list as k[]) signed, the file part not.
        let ios = try api.upload([("add-tags", [a, b]), ("set-title", ["Holidays"])],
                                 file: BBFilePart(filename: "photo.jpg", contentType: "image/jpeg", bytes: photo))
        XCTAssertEqual(ios.status, 201, ios.text)
        XCTAssertEqual(ios.main?["title#t"], .string("Holidays"))
        let joined = try api.send("GET", "/data/file/\(ios.id)", p(("joins", "join tags")))
        XCTAssertEqual(joined.main?["tags#r"]?["count"]?.int64Value, 2, joined.text)
        // Android (k[0] lists, method/path as real parameters), the browser (repeated names) and Node (k[0]).
        for style in [SDKStyle.android, .browser, .node] {
            var client = api!
            client.style = style
            let r = try client.upload([("add-tags", [a, b]), ("description", ["plain parameter"])],
                                      file: BBFilePart(filename: "p.jpg", contentType: "image/jpeg", bytes: photo))
            XCTAssertEqual(r.status, 201, "\(style): \(r.text)")
            XCTAssertEqual(r.main?["description#ta"], .string("plain parameter"), "\(style)")
        }
    }

    func test_BB_097_missingFileAndLimits() throws {
        // A multipart body without a file part, a urlencoded body, and POST /data/file.
        assertError(try api.upload(p(("set-title", "x")), file: nil), 400, "MissingFile")
        assertError(try api.upload(file: BBFilePart(filename: "x.jpg", contentType: "image/jpeg", bytes: photo, name: "other")),
                    400, "MissingFile")
        assertError(try api.send("POST", "/data/file/upload", p(("set-title", "x"))), 400, "MissingFile")
        assertError(try api.send("POST", "/data/file", p(("set-title", "x"))), 400, "MissingFile")
        // 51 MiB is over the 50 MiB upload limit; 9 MiB is over the body limit but an upload may be larger.
        let huge = try api.upload(file: BBFilePart(filename: "big.bin", contentType: nil, bytes: [UInt8](repeating: 7, count: 51 << 20)))
        assertError(huge, 413, "RequestTooLarge")
        XCTAssertEqual(try api.send("GET", "/data/file")["count"]?.int64Value, 0)
        let nine = try api.upload(file: BBFilePart(filename: "nine.bin", contentType: nil, bytes: [UInt8](repeating: 9, count: 9 << 20)))
        XCTAssertEqual(nine.status, 201, nine.text)
        XCTAssertEqual(nine.main?["size#n"]?.int64Value, 9 << 20)
        XCTAssertEqual(try api.download("/data/file/download/\(nine.id)").body.count, 9 << 20)
    }

    func test_BB_098_newVersions() throws {
        let id = try uploadFile()
        let png = try ImageFixtures.bytes("quadrants.png")
        let r = try api.upload(method: "PUT", path: "/data/file/upload/\(id)", file: BBFilePart(filename: "q.png", contentType: "image/png", bytes: png))
        XCTAssertEqual(r.status, 200, r.text)
        XCTAssertEqual(r.id, id)
        XCTAssertEqual(r.main?["version#n"]?.numberValue?.text, "2")
        XCTAssertEqual(r.main?["mime#t"], .string("image/png"))
        XCTAssertEqual(r.main?["width#n"]?.int64Value, 64)
        XCTAssertEqual(r.main?["title#t"], .string("photo.jpg"), "a new version keeps the title")
        XCTAssertEqual(try api.download("/data/file/download/\(id)/2").body, png)
        let fresh = try api.upload(method: "PUT", path: "/data/file/upload/_new", file: BBFilePart(filename: "n.jpg", contentType: "image/jpeg", bytes: photo))
        XCTAssertEqual(fresh.status, 201, fresh.text)
        XCTAssertNotEqual(fresh.id, id)
        XCTAssertEqual(fresh.main?["version#n"]?.numberValue?.text, "1")
        let place = try create("place", p(("set-name", "x")))
        for target in ["nosuch00000", place] {
            assertError(try api.upload(method: "PUT", path: "/data/file/upload/\(target)", file: BBFilePart(filename: "n.jpg", contentType: "image/jpeg", bytes: photo)),
                        404, "ObjectNotFound")
        }
        XCTAssertEqual(try api.send("GET", "/data/file")["count"]?.int64Value, 2)
    }

    func test_BB_099_serverManagedFields() throws {
        let id = try uploadFile()
        assertError(try api.send("PUT", "/data/file/\(id)", p(("set-version", "5"))), 400, "InvalidParameters")
        assertError(try api.send("PUT", "/data/file/\(id)", p(("set-size", "1"))), 400, "InvalidParameters")
        assertError(try api.upload(p(("set-version", "5")), file: BBFilePart(filename: "a.jpg", contentType: "image/jpeg", bytes: photo)),
                    400, "InvalidParameters")
        let r = try api.send("PUT", "/data/file/\(id)", p(("set-description", "x")))
        XCTAssertEqual(r.status, 200, r.text)
        XCTAssertEqual(r.main?["description#t"], .string("x"))
        XCTAssertEqual(r.main?["version#n"]?.int64Value, 1)
        XCTAssertEqual(r.main?["size#n"]?.int64Value, Int64(photo.count))
        XCTAssertEqual(try api.send("GET", "/data/file")["count"]?.int64Value, 1)
    }

    func test_BB_100_unsignedDownload() throws {
        let id = try uploadFile()
        let r = try api.download("/data/file/download/\(id)/1")
        XCTAssertEqual(r.status, 200)
        XCTAssertEqual(r.body, photo)
        XCTAssertEqual(r.header("Content-Type"), "image/jpeg")
        XCTAssertEqual(r.header("Cache-Control"), "public, max-age=31556926")
        XCTAssertEqual(r.header("ETag"), "\"\(id)-1\"")
        XCTAssertEqual(r.header("Accept-Ranges"), "bytes")
        XCTAssertEqual(r.header("X-Content-Type-Options"), "nosniff")
        XCTAssertEqual(r.header("Content-Length"), String(photo.count))
        XCTAssertNotNil(r.header("Last-Modified"))
        XCTAssertNil(r.header("Content-Disposition"))
        // Through the path prefix too.
        let prefixed = try bb.server.request("GET", "/backbeam/\(projectName)/dev/data/file/download/\(id)/1", headers: [("Host", "localhost")])
        XCTAssertEqual(prefixed.body, photo)
    }

    func test_BB_101_versionlessAndFloatingPointVersion() throws {
        let id = try uploadFile()
        let r = try api.download("/data/file/download/\(id)")
        XCTAssertEqual(r.body, photo)
        XCTAssertEqual(r.header("Cache-Control"), "public, max-age=604800")
        let android = try api.download("/data/file/download/\(id)/1.0")
        XCTAssertEqual(android.body, photo)
        XCTAssertEqual(android.header("Cache-Control"), "public, max-age=31556926")
        XCTAssertEqual(try api.download("/data/file/download/\(id)/abc").header("Cache-Control"), "public, max-age=604800")
    }

    func test_BB_102_leftoverSigningParameters() throws {
        let id = try uploadFile()
        let js = try api.download("/data/file/download/\(id)/1", query: "key=\(projectKeys.dev.key)&signature=abc%3D")
        XCTAssertEqual(js.status, 200)
        XCTAssertEqual(js.body, photo)
        let android = try api.download("/data/file/download/\(id)/1",
                                       query: "key=\(projectKeys.dev.key)&method=GET&path=/data/file/download/\(id)/1")
        XCTAssertEqual(android.status, 200)
        XCTAssertEqual(android.body, photo)
    }

    func test_BB_103_reuploadChangesTheCurrentContent() throws {
        let id = try uploadFile()
        let png = try ImageFixtures.bytes("bands.png")
        XCTAssertEqual(try api.upload(method: "PUT", path: "/data/file/upload/\(id)", file: BBFilePart(filename: "b.png", contentType: "image/png", bytes: png)).status, 200)
        let old = try api.download("/data/file/download/\(id)/1")
        XCTAssertEqual(old.body, png)
        XCTAssertEqual(old.header("Cache-Control"), "public, max-age=604800")
        XCTAssertEqual(old.header("ETag"), "\"\(id)-2\"")
        let current = try api.download("/data/file/download/\(id)/2")
        XCTAssertEqual(current.body, png)
        XCTAssertEqual(current.header("Cache-Control"), "public, max-age=31556926")
    }

    func test_BB_104_ranges() throws {
        let id = try uploadFile()
        let path = "/data/file/download/\(id)/1"
        let first = try api.download(path, headers: [("Range", "bytes=0-99")])
        XCTAssertEqual(first.status, 206)
        XCTAssertEqual(first.body, Array(photo[0..<100]))
        XCTAssertEqual(first.header("Content-Range"), "bytes 0-99/\(photo.count)")
        let last = try api.download(path, headers: [("Range", "bytes=-10")])
        XCTAssertEqual(last.status, 206)
        XCTAssertEqual(last.body, Array(photo.suffix(10)))
        let open = try api.download(path, headers: [("Range", "bytes=\(photo.count - 5)-")])
        XCTAssertEqual(open.body, Array(photo.suffix(5)))
        let past = try api.download(path, headers: [("Range", "bytes=999999999-")])
        XCTAssertEqual(past.status, 416)
        XCTAssertEqual(past.header("Content-Range"), "bytes */\(photo.count)")
        let garbage = try api.download(path, headers: [("Range", "bytes=abc")])
        XCTAssertEqual(garbage.status, 200)
        XCTAssertEqual(garbage.body, photo)
        let many = (0..<1000).map { "\($0)-\($0)" }.joined(separator: ",")
        let multi = try api.download(path, headers: [("Range", "bytes=" + many)])
        XCTAssertEqual(multi.status, 200)
        XCTAssertEqual(multi.body, photo)
    }

    func test_BB_105_conditionalAndHead() throws {
        let id = try uploadFile()
        let path = "/data/file/download/\(id)/1"
        let etag = try XCTUnwrap(try api.download(path).header("ETag"))
        let cached = try api.download(path, headers: [("If-None-Match", etag)])
        XCTAssertEqual(cached.status, 304)
        XCTAssertTrue(cached.body.isEmpty)
        XCTAssertEqual(cached.header("ETag"), etag)
        XCTAssertEqual(try api.download(path, headers: [("If-None-Match", "\"other\"")]).status, 200)
        let head = try api.download(path, method: "HEAD")
        XCTAssertEqual(head.status, 200)
        XCTAssertTrue(head.body.isEmpty)
        XCTAssertEqual(head.header("Content-Length"), String(photo.count))
        XCTAssertEqual(head.header("ETag"), etag)
        XCTAssertEqual(head.header("Content-Type"), "image/jpeg")
    }

    func test_BB_106_activeContentIsAnAttachment() throws {
        let html = try uploadFile("x.html", type: "text/html", bytes: Array("<script>alert(1)</script>".utf8))
        let svg = try uploadFile("x.svg", type: "image/svg+xml", bytes: Array("<svg xmlns=\"http://www.w3.org/2000/svg\"/>".utf8))
        let js = try uploadFile("x.js", type: "application/javascript", bytes: Array("alert(1)".utf8))
        for id in [html, svg, js] {
            let r = try api.download("/data/file/download/\(id)/1")
            XCTAssertEqual(r.status, 200)
            XCTAssertEqual(r.header("Content-Disposition"), "attachment", id)
            XCTAssertEqual(r.header("Content-Security-Policy"), "sandbox", id)
            XCTAssertEqual(r.header("X-Content-Type-Options"), "nosniff")
        }
        // A content type that is not type/subtype is served as application/octet-stream.
        let odd = try uploadFile("odd.bin", type: "not a type", bytes: [1])
        XCTAssertEqual(try api.download("/data/file/download/\(odd)").header("Content-Type"), "application/octet-stream")
    }

    func test_BB_107_hostileFileNames() throws {
        let long = String(repeating: "n", count: 10_000) + ".txt"
        // A NUL arrives raw (a client copying the local name verbatim) or in the RFC 5987 form
        // `filename*=UTF-8''a%00b`; either way the stored name is cleaned.
        let cases: [(BBFilePart, String)] = [
            (BBFilePart(filename: "../../etc/passwd", contentType: "text/plain", bytes: Array("x".utf8)), "passwd"),
            (BBFilePart(filename: "a\u{0}b", contentType: "text/plain", bytes: Array("x".utf8)), "ab"),
            (BBFilePart(filename: nil, contentType: "text/plain", bytes: Array("x".utf8),
                        rawFilenameParameter: "filename*=UTF-8''a%00b"), "ab"),
            (BBFilePart(filename: "a\u{7}b\u{1b}.txt", contentType: "text/plain", bytes: Array("x".utf8)), "ab.txt"),
        ]
        for (part, stored) in cases {
            let r = try api.upload(file: part)
            XCTAssertEqual(r.status, 201, r.text)
            XCTAssertEqual(r.main?["filename#t"], .string(stored), stored)
            XCTAssertEqual(try api.download("/data/file/download/\(r.id)").body, Array("x".utf8))
        }
        // A NUL in another part header is still malformed: 400, nothing stored.
        let bad = try api.upload(file: BBFilePart(filename: "c.txt", contentType: "text/pl\u{0}ain", bytes: Array("x".utf8)))
        assertError(bad, 400, "InvalidParameters")
        XCTAssertEqual(try api.send("GET", "/data/file")["count"]?.int64Value, 4)
        let r = try api.upload(file: BBFilePart(filename: long, contentType: "text/plain", bytes: Array("y".utf8)))
        XCTAssertEqual(r.status, 201, r.text)
        let name = try XCTUnwrap(r.main?["filename#t"]?.stringValue)
        XCTAssertLessThanOrEqual(name.utf8.count, 255)
        XCTAssertTrue(name.hasSuffix(".txt"))
        // Nothing was written outside the blob store: no file of those names anywhere in the data directory, nor
        // beside it, where `../../etc/passwd` would lead from a folder inside it.
        let data = bb.server.dataDirectory
        let names = FileManager.default.enumerator(atPath: data.path)?.allObjects as? [String] ?? []
        XCTAssertFalse(names.contains { $0.hasSuffix("passwd") || $0.hasSuffix(".txt") || $0.hasSuffix("/etc") }, "\(names)")
        let beside = (try? FileManager.default.contentsOfDirectory(atPath: data.deletingLastPathComponent().path)) ?? []
        XCTAssertFalse(beside.contains("passwd"), "\(beside)")
    }

    func test_BB_108_downloadOfMissingFiles() throws {
        let r = try api.download("/data/file/download/nosuch00000/1")
        assertError(BBResponse(raw: r), 404, "ObjectNotFound")
        let place = try create("place", p(("set-name", "x")))
        assertError(BBResponse(raw: try api.download("/data/file/download/\(place)")), 404, "ObjectNotFound")
        let id = try uploadFile()
        XCTAssertEqual(try api.send("DELETE", "/data/file/\(id)").status, 200)
        assertError(BBResponse(raw: try api.download("/data/file/download/\(id)/1")), 404, "ObjectNotFound")
        assertError(BBResponse(raw: try api.download("/data/file/download/bad$id")), 404, "ObjectNotFound")
        // JSONP does not apply to downloads.
        assertError(BBResponse(raw: try api.download("/data/file/download/nosuch00000", query: "callback=cb")), 404, "ObjectNotFound")
    }
}
