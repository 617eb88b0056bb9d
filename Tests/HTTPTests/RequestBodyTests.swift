import Foundation
import XCTest
@testable import HTTP

final class RequestBodyTests: XCTestCase {
    func testCounts() {
        XCTAssertEqual(RequestBody.empty.count, 0)
        XCTAssertEqual(RequestBody.bytes([1, 2, 3]).count, 3)
        XCTAssertEqual(RequestBody.file(path: "/nonexistent", length: 42).count, 42)
    }

    func testReadAllLimit() throws {
        XCTAssertEqual(try RequestBody.bytes([1, 2, 3]).readAll(limit: 3), [1, 2, 3])
        XCTAssertThrowsError(try RequestBody.bytes([1, 2, 3]).readAll(limit: 2)) {
            XCTAssertEqual($0 as? HTTPError, .payloadTooLarge)
        }
        XCTAssertEqual(try RequestBody.empty.readAll(limit: 0), [])
    }

    func testFileBodyRoundTrip() throws {
        let writer = try TempFileWriter(directory: NSTemporaryDirectory())
        let bytes = (0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        try writer.write(bytes)
        let body = writer.finish()
        defer { body.removeTemporaryFile() }
        guard case .file(let path, let length) = body else { return XCTFail("expected a file body") }
        XCTAssertEqual(length, bytes.count)
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        XCTAssertEqual((attributes[.posixPermissions] as? NSNumber)?.intValue, 0o600)
        XCTAssertEqual(try body.readAll(limit: bytes.count), bytes)
        XCTAssertThrowsError(try body.readAll(limit: bytes.count - 1)) { XCTAssertEqual($0 as? HTTPError, .payloadTooLarge) }
        var pieces = 0
        var joined: [UInt8] = []
        try body.forEachChunk(chunkSize: 65_536) { chunk in
            XCTAssertLessThanOrEqual(chunk.count, 65_536)
            pieces += 1
            joined.append(contentsOf: chunk)
        }
        XCTAssertEqual(pieces, 4)
        XCTAssertEqual(joined, bytes)
    }

    func testMissingFileThrows() {
        XCTAssertThrowsError(try RequestBody.file(path: "/nonexistent/quartet", length: 3).readAll(limit: 10)) {
            XCTAssertEqual(($0 as? FileIOError)?.operation, "open")
        }
    }

    func testDiscardedWriterRemovesFile() throws {
        let writer = try TempFileWriter(directory: NSTemporaryDirectory())
        try writer.write([1, 2, 3])
        let path = writer.path
        XCTAssertTrue(FileManager.default.fileExists(atPath: path))
        writer.discard()
        XCTAssertFalse(FileManager.default.fileExists(atPath: path))
    }
}
