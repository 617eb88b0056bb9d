import Core
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
