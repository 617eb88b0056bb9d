import Foundation
import XCTest
import Core

/// `couch.maxJsonRequestSize` (§4.9): JSON bodies, which are decoded whole, have their own limit below
/// `couch.maxRequestSize`; attachment and multipart bodies, which stream to blobs, keep the larger one.
final class CouchJSONBodyLimitTests: CouchTestCase {
    static let limit = 16 << 10
    override var environment: [String: String] { ["QUARTET_COUCH_MAX_JSON_REQUEST_SIZE": String(Self.limit)] }

    /// A `_bulk_docs` body of exactly `size` bytes: one document whose string pads it out.
    static func bulkBody(id: String, size: Int) -> [UInt8] {
        let head = #"{"docs":[{"_id":""# + id + #"","p":""#
        let tail = #""}]}"#
        return Array((head + String(repeating: "x", count: size - head.utf8.count - tail.utf8.count) + tail).utf8)
    }

    func test_CD_014_jsonBodyAtAndOverTheLimit() throws {
        let fits = Self.bulkBody(id: "fits", size: Self.limit)
        XCTAssertEqual(fits.count, Self.limit)
        let stored = try send("POST", "/db/_bulk_docs", bytes: fits)
        XCTAssertEqual(stored.status, 201, stored.text)
        let over = Self.bulkBody(id: "over", size: Self.limit + 1)
        assertError(try send("POST", "/db/_bulk_docs", bytes: over), 413, "too_large", "the request entity is too large")
        // A document PUT with its body one byte over, and a POST to the database.
        var document = Array(#"{"p":""#.utf8) + [UInt8](repeating: UInt8(ascii: "y"), count: Self.limit) + Array(#""}"#.utf8)
        assertError(try send("PUT", "/db/big", bytes: document), 413, "too_large", "the request entity is too large")
        document = Array(#"{"_id":"big2","p":""#.utf8) + [UInt8](repeating: UInt8(ascii: "y"), count: Self.limit) + Array(#""}"#.utf8)
        assertError(try send("POST", "/db", bytes: document), 413, "too_large", "the request entity is too large")
        for id in ["over", "big", "big2"] { XCTAssertEqual(try send("GET", "/db/\(id)").status, 404, id) }
        XCTAssertEqual(try info()["doc_count"]?.int64Value, 1)
    }

    func test_CD_014_oversizeJsonIsRefusedBeforeTheBodyIsRead() throws {
        // `Content-Length` over the JSON limit (and far under couch.maxRequestSize): 413 at once, no 100 Continue.
        let client = try server.connect()
        defer { client.close() }
        try client.send("POST /couch/db/_bulk_docs HTTP/1.1\r\nHost: x\r\nAuthorization: \(Self.basic("admin", Self.password))\r\n"
                        + "Content-Type: application/json\r\nExpect: 100-continue\r\nContent-Length: \(Self.limit + 1)\r\n\r\n")
        assertError(try client.readResponse(), 413, "too_large", "the request entity is too large")
        // A chunked body is cut off once it passes the limit.
        let chunked = try server.connect()
        defer { chunked.close() }
        let body = Self.bulkBody(id: "chunked", size: Self.limit + 100)
        try chunked.send("POST /couch/db/_bulk_docs HTTP/1.1\r\nHost: x\r\nAuthorization: \(Self.basic("admin", Self.password))\r\n"
                         + "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n")
        try chunked.send(String(body.count, radix: 16) + "\r\n")
        try? chunked.send(body + Array("\r\n0\r\n\r\n".utf8))
        assertError(try chunked.readResponse(), 413, "too_large", "the request entity is too large")
        XCTAssertEqual(try send("GET", "/db/chunked").status, 404)
    }

    func test_CD_014_attachmentAndMultipartBodiesKeepTheRequestLimit() throws {
        // Both stream to blobs: four times the JSON limit is fine.
        let content = [UInt8](repeating: UInt8(ascii: "a"), count: 4 * Self.limit)
        let attachment = try send("PUT", "/db/withatt/file.bin", bytes: content, contentType: "application/octet-stream")
        XCTAssertEqual(attachment.status, 201, attachment.text)
        let doc = #"{"_attachments":{"f":{"follows":true,"content_type":"application/octet-stream","length":\#(content.count)}}}"#
        let multipart = MultipartTestBody.build([MultipartTestBody.Part(["Content-Type: application/json"], doc),
                                                 MultipartTestBody.Part([], content)])
        let put = try send("PUT", "/db/multi", bytes: multipart, headers: [("Content-Type", MultipartTestBody.contentType)])
        XCTAssertEqual(put.status, 201, put.text)
        XCTAssertEqual(try send("GET", "/db/multi/f").body.count, content.count)
    }

    func test_CD_133_gzipBodyInflatingPastTheJsonLimit() throws {
        // About 100 bytes of gzip that inflate one byte past the limit: 413, nothing stored.
        let over = try Compression.deflate(Self.bulkBody(id: "gzover", size: Self.limit + 1), format: .gzip, level: 9)
        XCTAssertLessThan(over.count, Self.limit)
        assertError(try send("POST", "/db/_bulk_docs", bytes: over, headers: [("Content-Encoding", "gzip")]),
                    413, "too_large", "the request entity is too large")
        XCTAssertEqual(try send("GET", "/db/gzover").status, 404)
        // Inflating to exactly the limit is accepted.
        let fits = try Compression.deflate(Self.bulkBody(id: "gzfits", size: Self.limit), format: .gzip, level: 9)
        let stored = try send("POST", "/db/_bulk_docs", bytes: fits, headers: [("Content-Encoding", "gzip")])
        XCTAssertEqual(stored.status, 201, stored.text)
        XCTAssertEqual(try send("GET", "/db/gzfits").status, 200)
    }
}
