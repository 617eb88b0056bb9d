import Foundation
import HTTP
import Storage
import XCTest
@testable import Files

final class UploadsTests: XCTestCase {
    func testLimitsRefuseEmptyAndOversizedUploads() {
        let limits = UploadLimits(maxBytes: 10)
        XCTAssertNoThrow(try limits.check(size: 10))
        XCTAssertThrowsError(try limits.check(size: 11)) { XCTAssertEqual($0 as? UploadError, .tooLarge(limit: 10)) }
        XCTAssertThrowsError(try limits.check(size: 0)) { XCTAssertEqual($0 as? UploadError, .empty) }
        XCTAssertNoThrow(try UploadLimits(maxBytes: 10, refusesEmpty: false).check(size: 0))
        XCTAssertEqual(UploadLimits().maxBytes, 20 << 20)
        XCTAssertEqual(UploadLimits().maxNameBytes, SafeFileName.defaultMaxBytes)
    }

    func testASpooledBodyIsStreamedIntoTheStore() throws {
        let (blobs, dir) = try makeBlobStore(self)
        let bytes = (0..<(3 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        let spooled = try writeFile(bytes, in: dir)
        let reference = try Uploads.store(.file(path: spooled, length: bytes.count), in: blobs,
                                          limits: UploadLimits(maxBytes: 4 << 20))
        XCTAssertEqual(reference.size, bytes.count)
        let stored = try XCTUnwrap(blobs.path(for: reference.hash))
        XCTAssertEqual(FileManager.default.contents(atPath: stored).map { [UInt8]($0) }, bytes)
        XCTAssertTrue(FileManager.default.fileExists(atPath: spooled), "the server removes its own temp file")
    }

    func testABodyInMemoryIsStoredAndEqualContentSharesABlob() throws {
        let (blobs, _) = try makeBlobStore(self)
        let first = try Uploads.store(.bytes(Array("hello".utf8)), in: blobs, limits: UploadLimits())
        let second = try Uploads.store(.bytes(Array("hello".utf8)), in: blobs, limits: UploadLimits())
        XCTAssertEqual(first, second)
        XCTAssertEqual(first.hash, "2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824")
    }

    func testARefusedUploadStoresNothing() throws {
        let (blobs, dir) = try makeBlobStore(self)
        XCTAssertThrowsError(try Uploads.store(.bytes(Array("too long".utf8)), in: blobs, limits: UploadLimits(maxBytes: 4))) {
            XCTAssertEqual($0 as? UploadError, .tooLarge(limit: 4))
        }
        XCTAssertThrowsError(try Uploads.store(.empty, in: blobs, limits: UploadLimits())) {
            XCTAssertEqual($0 as? UploadError, .empty)
        }
        let files = FileManager.default.enumerator(atPath: dir + "/blobs")?.compactMap { $0 as? String } ?? []
        XCTAssertEqual(files, ["tmp"], "no blob and no temp file")
    }
}
