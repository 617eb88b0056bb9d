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

final class RequestBodyCollectorTests: XCTestCase {
    func testSmallBodiesStayInMemory() throws {
        var collector = RequestBodyCollector(inMemoryThreshold: 10, tempDirectory: NSTemporaryDirectory())
        XCTAssertEqual(collector.finish(), .empty)
        try collector.append([1, 2, 3])
        try collector.append(Array(repeating: 4, count: 7))
        XCTAssertEqual(collector.count, 10)
        XCTAssertEqual(collector.finish(), .bytes([1, 2, 3] + Array(repeating: 4, count: 7)))
    }

    func testLargeBodiesAreSpooled() throws {
        var collector = RequestBodyCollector(inMemoryThreshold: 10, tempDirectory: NSTemporaryDirectory())
        try collector.append([1, 2, 3, 4, 5, 6])
        try collector.append([7, 8, 9, 10, 11])
        try collector.append([12])
        let body = collector.finish()
        defer { body.removeTemporaryFile() }
        guard case .file(_, let length) = body else { return XCTFail("expected a file body") }
        XCTAssertEqual(length, 12)
        XCTAssertEqual(try body.readAll(limit: 100), Array(1...12))
    }

    func testDiscardRemovesFile() throws {
        let directory = NSTemporaryDirectory() + "quartet-collector-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var collector = RequestBodyCollector(inMemoryThreshold: 1, tempDirectory: directory)
        try collector.append([1, 2, 3])
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory).count, 1)
        collector.discard()
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory), [])
        XCTAssertEqual(collector.finish(), .empty)
    }
}
