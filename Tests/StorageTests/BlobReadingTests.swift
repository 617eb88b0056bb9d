import Core
import Foundation
import XCTest
@testable import Storage

/// `BlobStore.bytes(of:limit:)`: whole blobs read back, bounded by the caller's limit.
final class BlobReadingTests: XCTestCase {
    func testReadsWhatWasStoredWithinTheLimit() throws {
        let (storage, dir) = try makeStorage(self)
        let store = try BlobStore(directory: dir + "/blobs", storage: storage)
        let bytes = (0..<200_000).map { UInt8($0 % 241) }
        let reference = try store.store(bytes: bytes)
        XCTAssertEqual(try store.bytes(of: reference.hash, limit: bytes.count), bytes)
        XCTAssertThrowsError(try store.bytes(of: reference.hash, limit: bytes.count - 1))
        let empty = try store.store(bytes: [])
        XCTAssertEqual(try store.bytes(of: empty.hash, limit: 0), [])
        XCTAssertThrowsError(try store.bytes(of: String(repeating: "0", count: 64), limit: 10))
        XCTAssertThrowsError(try store.bytes(of: "../etc/passwd", limit: 10))
    }
}

/// `BlobStore.contains`: the same answer as `path(for:) != nil`, for stored, missing and malformed hashes.
final class BlobPresenceTests: XCTestCase {
    func testContainsAnswersWhatPathForAnswers() throws {
        let (storage, dir) = try makeStorage(self)
        let store = try BlobStore(directory: dir + "/blobs", storage: storage)
        let stored = try store.store(bytes: Array("some content".utf8))
        let missing = String(repeating: "ab", count: 32)
        // A directory where a blob file would be is not a blob.
        let directoryHash = String(repeating: "cd", count: 32)
        guard let location = store.location(for: directoryHash) else { return XCTFail("no location") }
        try FileManager.default.createDirectory(atPath: location.file, withIntermediateDirectories: true)
        let hashes = [stored.hash, missing, directoryHash, "", "../etc/passwd", String(repeating: "A", count: 64),
                      String(repeating: "0", count: 63), String(repeating: "0", count: 65),
                      String(stored.hash.dropLast()) + "g", stored.hash.uppercased(), "é" + String(stored.hash.dropFirst(2))]
        for hash in hashes {
            XCTAssertEqual(store.contains(hash), store.path(for: hash) != nil, hash)
        }
        XCTAssertTrue(store.contains(stored.hash))
        XCTAssertFalse(store.contains(missing))
        XCTAssertFalse(store.contains(directoryHash))
        XCTAssertTrue(BlobStore.isValidHash(String(repeating: "0123456789abcdef", count: 4)))
        XCTAssertFalse(BlobStore.isValidHash(String(repeating: "0123456789abcdeF", count: 4)))
    }
}
