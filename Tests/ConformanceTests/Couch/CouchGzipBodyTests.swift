import Foundation
import XCTest
import Core

/// gzip-encoded request bodies (spec §2.3, checklist CD-133) on the endpoints that read JSON.
final class CouchGzipBodyTests: CouchTestCase {
    private func gzip(_ text: String) throws -> [UInt8] {
        try Compression.deflate(Array(text.utf8), format: .gzip, level: 6)
    }

    func test_CD_133_gzipBodiesOnEveryJSONEndpoint() throws {
        let gz = [("Content-Encoding", "gzip")]
        // A document PUT and POST, as Couchbase Lite 1.x sends them.
        let put = try send("PUT", "/db/a", bytes: try gzip(#"{"v":1}"#), headers: gz)
        XCTAssertEqual(put.status, 201, put.text)
        XCTAssertEqual(try get("/db/a")["v"]?.int64Value, 1)
        let post = try send("POST", "/db", bytes: try gzip(#"{"_id":"b","w":"x"}"#), headers: [("Content-Encoding", " GZIP ")])
        XCTAssertEqual(post.status, 201, post.text)
        // _bulk_get and _revs_diff read the decoded body too.
        let rev = json(put)["rev"]?.stringValue ?? ""
        let bulkGet = try send("POST", "/db/_bulk_get", bytes: try gzip(#"{"docs":[{"id":"a"}]}"#), headers: gz)
        XCTAssertEqual(bulkGet.status, 200, bulkGet.text)
        XCTAssertEqual(json(bulkGet)["results"]?[0]?["docs"]?[0]?["ok"]?["_rev"]?.stringValue, rev)
        let diff = try send("POST", "/db/_revs_diff", bytes: try gzip(#"{"a":["\#(rev)","9-\#(Self.hex("a"))"]}"#), headers: gz)
        XCTAssertEqual(json(diff)["a"]?["missing"]?[0]?.stringValue, "9-\(Self.hex("a"))")
        // Two gzip members one after the other decode as one body (RFC 1952 §2.2).
        let halves = try gzip(#"{"_id":"c","#) + (try gzip(#""v":2}"#))
        XCTAssertEqual(try send("POST", "/db", bytes: halves, headers: gz).status, 201)
        XCTAssertEqual(try get("/db/c")["v"]?.int64Value, 2)
        // A large body (past the single-pass size) decodes through the measured path.
        let big = String(repeating: "y", count: 300_000)
        let r = try send("PUT", "/db/big", bytes: try gzip(#"{"v":"\#(big)"}"#), headers: gz)
        XCTAssertEqual(r.status, 201, r.text)
        XCTAssertEqual(try get("/db/big")["v"]?.stringValue?.count, 300_000)
        // Unknown encodings are refused where the body is read; identity is the body as is.
        assertError(try send("PUT", "/db/d", body: #"{"v":1}"#, headers: [("Content-Encoding", "deflate")]),
                    415, "bad_content_type", "deflate is not a supported content encoding.")
        XCTAssertEqual(try send("PUT", "/db/e", body: #"{"v":1}"#, headers: [("Content-Encoding", "identity")]).status, 201)
        // A gzip body that is not JSON after decoding is the JSON error, not the gzip one.
        assertError(try send("PUT", "/db/f", bytes: try gzip("{nope"), headers: gz), 400, "bad_request", "invalid UTF-8 JSON")
        XCTAssertEqual(try info()["doc_count"]?.int64Value, 5)
    }

    func test_CD_133_unauthenticatedGzipIsRefusedBeforeDecoding() throws {
        // 401 before any inflating: a corrupt body from an anonymous client gets 401, not 400.
        assertError(try send("PUT", "/db/x", bytes: [0x1F, 0x8B, 0, 1, 2], headers: [("Content-Encoding", "gzip")],
                             auth: .anonymous), 401, "unauthorized")
    }
}

/// A gzip bomb against a small `couch.maxRequestSize` (CD-133): 413 after decoding no more than the limit,
/// with the server's peak memory barely moved.
final class CouchGzipBombTests: CouchTestCase {
    override var environment: [String: String] { ["QUARTET_COUCH_MAX_REQUEST_SIZE": String(32 << 20)] }

    /// The server's peak resident set in KiB (`VmHWM`), or nil off Linux.
    private func peakKiB() -> Int? {
        let pid = server.process.processIdentifier
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
        }
        return nil
    }

    func test_CD_133_gzipBombIsRefusedWithBoundedMemory() throws {
        // `{"v":"` then 256 MiB of spaces inside a string: about 256 KB of gzip.
        let deflater = try Deflater(format: .gzip, level: 9)
        var bomb: [UInt8] = []
        let sink: (UnsafeRawBufferPointer) -> Void = { bomb.append(contentsOf: $0) }
        try Array(#"{"v":""#.utf8).withUnsafeBytes { try deflater.feed($0, sink) }
        let spaces = [UInt8](repeating: 0x20, count: 1 << 20)
        for _ in 0..<256 { try spaces.withUnsafeBytes { try deflater.feed($0, sink) } }
        try Array(#""}"#.utf8).withUnsafeBytes { try deflater.feed($0, sink) }
        try deflater.finish(sink)
        XCTAssertLessThan(bomb.count, 1 << 20)

        let before = peakKiB()
        // A document write and a bulk write (the same bomb is a malformed `_bulk_docs` body, but the size is
        // checked while it inflates, before any JSON is read).
        for path in ["/db/bomb", "/db/_bulk_docs", "/db/bomb", "/db/_bulk_docs"] {
            assertError(try send(path.hasSuffix("_bulk_docs") ? "POST" : "PUT", path, bytes: bomb,
                                 headers: [("Content-Encoding", "gzip")]),
                        413, "too_large", "the request entity is too large")
        }
        XCTAssertEqual(try info()["doc_count"]?.int64Value, 0)
        if let before, let after = peakKiB() {
            // Keeping even the 32 MiB allowed would show; the measuring pass keeps nothing.
            XCTAssertLessThan(after - before, 16 << 10, "peak RSS grew from \(before) KiB to \(after) KiB")
        }
        XCTAssertEqual(try send("GET", "/db/bomb").status, 404)
        // Just under the limit is accepted: the limit is on the decoded size, not a guess.
        let fits = try Compression.deflate(Array((#"{"v":""# + String(repeating: " ", count: 1 << 20) + #""}"#).utf8),
                                           format: .gzip, level: 9)
        XCTAssertEqual(try send("PUT", "/db/fits", bytes: fits, headers: [("Content-Encoding", "gzip")]).status, 201)
    }
}
