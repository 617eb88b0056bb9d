import Foundation
import HTTP
import Storage
import XCTest
@testable import Files

final class FileServingTests: XCTestCase {
    private let content = Array("0123456789abcdefghijklmnopqrstuvwxyz".utf8)   // 36 bytes
    private let etag = "\"v1\""
    /// The file's modification time, set by each test.
    private let modified = 1_700_000_000
    private let modifiedText = "Tue, 14 Nov 2023 22:13:20 GMT"

    private func file() throws -> String {
        let path = try writeFile(content, in: try makeTemporaryDirectory(self))
        var times = [timespec(tv_sec: modified, tv_nsec: 0), timespec(tv_sec: modified, tv_nsec: 0)]
        XCTAssertEqual(utimensat(AT_FDCWD, path, &times, 0), 0)
        return path
    }

    private func get(_ path: String, _ headers: HTTPHeaders = [:], method: HTTPMethod = .get,
                     cacheControl: String? = nil) throws -> HTTPResponse {
        let request = try HTTPRequest(method: method, target: "/f", headers: headers)
        return try XCTUnwrap(FileServing.respond(file: path, etag: etag, request: request, contentType: "text/plain",
                                                 cacheControl: cacheControl))
    }

    private func slice(_ response: HTTPResponse) -> (offset: Int, length: Int)? {
        if case .file(_, let offset, let length) = response.body { return (offset, length) }
        return nil
    }

    func testAWholeFileCarriesItsValidators() throws {
        let response = try get(try file(), cacheControl: "public, max-age=60")
        XCTAssertEqual(response.status, .ok)
        XCTAssertEqual(response.headers["ETag"], etag)
        XCTAssertEqual(response.headers["Last-Modified"], modifiedText)
        XCTAssertEqual(response.headers["Cache-Control"], "public, max-age=60")
        XCTAssertEqual(response.headers["Content-Type"], "text/plain")
        XCTAssertEqual(response.headers["Accept-Ranges"], "bytes")
        XCTAssertEqual(slice(response)?.offset, 0)
        XCTAssertEqual(slice(response)?.length, 36)
    }

    func testAMatchingETagGives304() throws {
        let path = try file()
        for header in [etag, "\"other\", \"v1\"", "W/\"v1\"", "*"] {
            let response = try get(path, ["If-None-Match": header], cacheControl: "no-cache")
            XCTAssertEqual(response.status, .notModified, header)
            XCTAssertEqual(response.headers["ETag"], etag)
            XCTAssertEqual(response.headers["Cache-Control"], "no-cache")
            XCTAssertNil(response.headers["Last-Modified"], "a 304 with an ETag needs no date")
            XCTAssertNil(response.headers["Content-Type"])
            XCTAssertEqual(response.body.knownLength, 0)
        }
        XCTAssertEqual(try get(path, ["If-None-Match": "\"v0\""]).status, .ok)
        XCTAssertEqual(try get(path, ["If-None-Match": "v1"]).status, .ok, "an unquoted tag is malformed")
        XCTAssertEqual(try get(path, ["If-None-Match": etag], method: .head).status, .notModified)
        XCTAssertEqual(try get(path, ["If-None-Match": etag], method: .post).status, .ok, "only GET and HEAD")
    }

    func testIfModifiedSinceGives304WhenNothingChanged() throws {
        let path = try file()
        XCTAssertEqual(try get(path, ["If-Modified-Since": modifiedText]).status, .notModified)
        XCTAssertEqual(try get(path, ["If-Modified-Since": "Wed, 15 Nov 2023 00:00:00 GMT"]).status, .notModified)
        XCTAssertEqual(try get(path, ["If-Modified-Since": "Tue, 14 Nov 2023 22:13:19 GMT"]).status, .ok)
        XCTAssertEqual(try get(path, ["If-Modified-Since": "yesterday"]).status, .ok, "an invalid date is ignored")
        XCTAssertEqual(try get(path, ["If-Modified-Since": modifiedText, "If-None-Match": "\"v0\""]).status, .ok,
                       "If-None-Match takes precedence")
    }

    func testSingleRanges() throws {
        let path = try file()
        let first = try get(path, ["Range": "bytes=0-9"])
        XCTAssertEqual(first.status, .partialContent)
        XCTAssertEqual(first.headers["Content-Range"], "bytes 0-9/36")
        XCTAssertEqual(slice(first)?.offset, 0)
        XCTAssertEqual(slice(first)?.length, 10)
        XCTAssertEqual(first.headers["ETag"], etag)

        let suffix = try get(path, ["Range": "bytes=-5"])
        XCTAssertEqual(suffix.status, .partialContent)
        XCTAssertEqual(suffix.headers["Content-Range"], "bytes 31-35/36")
        XCTAssertEqual(slice(suffix)?.offset, 31)

        let open = try get(path, ["Range": "bytes=10-"])
        XCTAssertEqual(open.status, .partialContent)
        XCTAssertEqual(open.headers["Content-Range"], "bytes 10-35/36")
        XCTAssertEqual(slice(open)?.length, 26)

        let beyond = try get(path, ["Range": "bytes=36-40"])
        XCTAssertEqual(beyond.status, .rangeNotSatisfiable)
        XCTAssertEqual(beyond.headers["Content-Range"], "bytes */36")

        let several = try get(path, ["Range": "bytes=0-1,5-6"])
        XCTAssertEqual(several.status, .ok, "several ranges get the whole file")
        XCTAssertEqual(slice(several)?.length, 36)
    }

    func testIfRangeSendsTheWholeFileForAnotherVersion() throws {
        let path = try file()
        let stale = try get(path, ["Range": "bytes=0-9", "If-Range": "\"v0\""])
        XCTAssertEqual(stale.status, .ok)
        XCTAssertEqual(slice(stale)?.length, 36)
        XCTAssertEqual(try get(path, ["Range": "bytes=0-9", "If-Range": etag]).status, .partialContent)
        XCTAssertEqual(try get(path, ["Range": "bytes=0-9", "If-Range": "W/\"v1\""]).status, .ok,
                       "If-Range compares strongly")
        XCTAssertEqual(try get(path, ["Range": "bytes=0-9", "If-Range": modifiedText]).status, .partialContent)
        XCTAssertEqual(try get(path, ["Range": "bytes=0-9", "If-Range": "Wed, 15 Nov 2023 00:00:00 GMT"]).status, .ok)
        XCTAssertEqual(try get(path, ["Range": "bytes=0-9", "If-Range": "garbage"]).status, .ok)
    }

    func testAMissingFileIsLeftToTheCaller() throws {
        let dir = try makeTemporaryDirectory(self)
        let request = try HTTPRequest(method: .get, target: "/f")
        XCTAssertNil(FileServing.respond(file: dir + "/missing", etag: nil, request: request, contentType: "text/plain"))
        XCTAssertNil(FileServing.respond(file: dir, etag: nil, request: request, contentType: "text/plain"),
                     "a directory is not a file")
    }

    func testABlobIsServedUnderItsHash() throws {
        let (blobs, _) = try makeBlobStore(self)
        let reference = try blobs.store(bytes: content)
        let request = try HTTPRequest(method: .get, target: "/b", headers: ["Range": "bytes=-6"])
        let response = try XCTUnwrap(FileServing.respond(blob: reference.hash, in: blobs, request: request,
                                                         contentType: "application/octet-stream",
                                                         cacheControl: "private", lastModified: modified))
        XCTAssertEqual(response.status, .partialContent)
        XCTAssertEqual(response.headers["ETag"], "\"\(reference.hash)\"")
        XCTAssertEqual(response.headers["Last-Modified"], modifiedText)
        XCTAssertEqual(response.headers["Cache-Control"], "private")
        let again = try HTTPRequest(method: .get, target: "/b", headers: ["If-None-Match": "\"\(reference.hash)\""])
        XCTAssertEqual(FileServing.respond(blob: reference.hash, in: blobs, request: again, contentType: "x/y")?.status,
                       .notModified)
        XCTAssertNil(FileServing.respond(blob: String(repeating: "0", count: 64), in: blobs, request: request,
                                         contentType: "x/y"))
        XCTAssertNil(FileServing.respond(blob: "../../etc/passwd", in: blobs, request: request, contentType: "x/y"))
    }
}

/// `FileServing.respond(contents:)`, the in-memory twin of `respond(file:)`: for every request the same
/// status, the same headers in the same order, and the same body bytes.
final class FileServingContentsTests: XCTestCase {
    private let content = Array("0123456789abcdefghijklmnopqrstuvwxyz".utf8)
    private let etag = "\"v1\""
    private let modified = 1_700_000_000

    /// The body's bytes, read from the file for a file body.
    private func bytes(_ body: ResponseBody) throws -> [UInt8] {
        switch body {
        case .empty: return []
        case .bytes(let bytes): return bytes
        case .file(let path, let offset, let length):
            let all = Array(try XCTUnwrap(FileManager.default.contents(atPath: path)))
            return Array(all[offset..<(offset + length)])
        case .stream: XCTFail("no stream expected"); return []
        }
    }

    func testEveryRequestGetsTheAnswerOfTheFile() throws {
        let path = try writeFile(content, in: try makeTemporaryDirectory(self))
        let cases: [(HTTPMethod, HTTPHeaders)] = [
            (.get, [:]), (.head, [:]), (.get, ["If-None-Match": etag]), (.get, ["If-None-Match": "\"v0\""]),
            (.get, ["If-Modified-Since": "Tue, 14 Nov 2023 22:13:20 GMT"]),
            (.get, ["If-Modified-Since": "Tue, 14 Nov 2023 22:13:19 GMT"]),
            (.get, ["Range": "bytes=0-9"]), (.get, ["Range": "bytes=30-"]), (.get, ["Range": "bytes=-5"]),
            (.get, ["Range": "bytes=10-1000"]), (.get, ["Range": "bytes=36-"]), (.get, ["Range": "bytes=0-0,5-6"]),
            (.get, ["Range": "bytes=0-35"]), (.get, ["Range": "bytes=9-3"]), (.get, ["Range": "lines=1-2"]),
            (.get, ["Range": "bytes=0-9", "If-Range": etag]), (.get, ["Range": "bytes=0-9", "If-Range": "\"v0\""]),
            (.head, ["Range": "bytes=0-9"]), (.post, ["Range": "bytes=0-9"]),
        ]
        for (method, headers) in cases {
            let request = try HTTPRequest(method: method, target: "/f", headers: headers)
            let fromFile = try XCTUnwrap(FileServing.respond(file: path, etag: etag, request: request, contentType: "image/jpeg",
                                                             cacheControl: "public, max-age=60", lastModified: modified))
            let fromMemory = FileServing.respond(contents: content, etag: etag, request: request, contentType: "image/jpeg",
                                                 cacheControl: "public, max-age=60", lastModified: modified)
            let label = "\(method) \(headers)"
            XCTAssertEqual(fromMemory.status, fromFile.status, label)
            XCTAssertEqual(fromMemory.headers, fromFile.headers, label)
            XCTAssertEqual(fromMemory.body.knownLength, fromFile.body.knownLength, label)
            XCTAssertEqual(try bytes(fromMemory.body), try bytes(fromFile.body), label)
        }
    }
}
