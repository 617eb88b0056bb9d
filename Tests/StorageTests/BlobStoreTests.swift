import Core
import Foundation
import XCTest
@testable import Storage

final class BlobStoreTests: XCTestCase {
    private func makeStore() throws -> (BlobStore, Storage, String) {
        let (storage, dir) = try makeStorage(self)
        try Migrator.migrate(storage, migrations: [Migration(version: 1, name: "core", sql: """
            CREATE TABLE quartet_blobs (hash TEXT PRIMARY KEY, size INTEGER NOT NULL,
                refcount INTEGER NOT NULL DEFAULT 0, created_at INTEGER NOT NULL, unreferenced_since INTEGER);
            """)])
        let blobDir = dir + "/blobs"
        return (try BlobStore(directory: blobDir, storage: storage), storage, blobDir)
    }

    /// Makes a file look `seconds` old so age-based collection applies to it.
    private func age(_ path: String, seconds: Double) throws {
        let date = Date(timeIntervalSinceNow: -seconds)
        try FileManager.default.setAttributes([.modificationDate: date], ofItemAtPath: path)
    }

    func testStoreWritesContentAddressedFile() throws {
        let (store, _, blobDir) = try makeStore()
        let bytes = Array("hello blob".utf8)
        let reference = try store.store(bytes: bytes)
        XCTAssertEqual(reference.hash, Hex.encode(Crypto.sha256(bytes)))
        XCTAssertEqual(reference.size, bytes.count)
        let hash = reference.hash
        let expectedPath = "\(blobDir)/\(hash.prefix(2))/\(hash.dropFirst(2).prefix(2))/\(hash)"
        XCTAssertEqual(store.path(for: hash), expectedPath)
        XCTAssertEqual(FileManager.default.contents(atPath: expectedPath).map { [UInt8]($0) }, bytes)
        // Nothing is left behind in the temp folder.
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: blobDir + "/tmp"), [])
    }

    func testSeparateTempDirectory() throws {
        let (storage, dir) = try makeStorage(self)
        let store = try BlobStore(directory: dir + "/blobs", storage: storage, tempDirectory: dir + "/tmp")
        let reference = try store.store(bytes: [1, 2, 3])
        XCTAssertNotNil(store.path(for: reference.hash))
        XCTAssertTrue(FileIO.isDirectory(dir + "/tmp"))
        XCTAssertFalse(FileIO.isDirectory(dir + "/blobs/tmp"))
    }

    func testEmptyBlob() throws {
        let (store, _, _) = try makeStore()
        let reference = try store.store(bytes: [])
        XCTAssertEqual(reference.hash, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        XCTAssertNotNil(store.path(for: reference.hash))
    }

    func testSameContentIsStoredOnce() throws {
        let (store, _, blobDir) = try makeStore()
        let a = try store.store(bytes: [1, 2, 3])
        let b = try store.store(bytes: [1, 2, 3])
        XCTAssertEqual(a, b)
        let files = FileManager.default.enumerator(atPath: blobDir)?.allObjects.compactMap { $0 as? String }
            .filter { $0.hasSuffix(a.hash) }
        XCTAssertEqual(files?.count, 1)
    }

    func testStoreFromFileStreamsLargeContent() throws {
        let (store, _, _) = try makeStore()
        let dir = try makeTemporaryDirectory(self)
        // Several chunks plus a partial one.
        let bytes = (0..<(FileIO.chunkSize * 3 + 123)).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        let source = dir + "/upload"
        XCTAssertTrue(FileManager.default.createFile(atPath: source, contents: Data(bytes)))
        let reference = try store.store(fileAt: source)
        XCTAssertEqual(reference, BlobReference(hash: Hex.encode(Crypto.sha256(bytes)), size: bytes.count))
        XCTAssertEqual(try store.store(bytes: bytes), reference)
        let stored = try XCTUnwrap(store.path(for: reference.hash))
        XCTAssertEqual(FileManager.default.contents(atPath: stored).map { [UInt8]($0) }, bytes)
        assertStorageError(try store.store(fileAt: dir + "/missing")) {
            if case .ioError = $0 { return true }
            return false
        }
    }

    func testPathRejectsMalformedAndMissingHashes() throws {
        let (store, _, _) = try makeStore()
        XCTAssertNil(store.path(for: "../../etc/passwd"))
        XCTAssertNil(store.path(for: String(repeating: "A", count: 64)))
        XCTAssertNil(store.path(for: String(repeating: "a", count: 64)))
    }

    func testRetainAndReleaseCountReferences() throws {
        let (store, storage, _) = try makeStore()
        let hash = try store.store(bytes: [9, 9]).hash
        XCTAssertNil(try store.referenceCount(hash))
        try storage.writeAndWait { try store.retain(hash, in: $0) }
        try storage.writeAndWait { try store.retain(hash, in: $0) }
        XCTAssertEqual(try store.referenceCount(hash), 2)
        let row = try storage.read { try $0.queryOne("SELECT size, unreferenced_since FROM quartet_blobs WHERE hash = ?", [.text(hash)]) }
        XCTAssertEqual(row?["size"], .integer(2))
        XCTAssertEqual(row?["unreferenced_since"], .null)
        try storage.writeAndWait { try store.release(hash, in: $0) }
        try storage.writeAndWait { try store.release(hash, in: $0) }
        XCTAssertEqual(try store.referenceCount(hash), 0)
        XCTAssertNotNil(try storage.read {
            try $0.queryOne("SELECT unreferenced_since FROM quartet_blobs WHERE hash = ?", [.text(hash)])?[0].int64
        })
        assertStorageError(try storage.writeAndWait { try store.release(hash, in: $0) }) {
            if case .blob = $0 { return true }
            return false
        }
        assertStorageError(try storage.writeAndWait { try store.retain(String(repeating: "0", count: 64), in: $0) }) {
            if case .blob(let message) = $0 { return message.contains("not in the store") }
            return false
        }
    }

    func testRetainInFailedJobIsRolledBack() throws {
        struct Boom: Error {}
        let (store, storage, _) = try makeStore()
        let hash = try store.store(bytes: [1]).hash
        XCTAssertThrowsError(try storage.writeAndWait { ctx in
            try store.retain(hash, in: ctx)
            throw Boom()
        })
        XCTAssertNil(try store.referenceCount(hash))
    }

    func testGarbageCollectionDeletesOnlyOldUnreferencedBlobs() throws {
        let (store, storage, blobDir) = try makeStore()
        let kept = try store.store(bytes: Array("kept".utf8)).hash
        let released = try store.store(bytes: Array("released".utf8)).hash
        let orphan = try store.store(bytes: Array("never retained".utf8)).hash
        let fresh = try store.store(bytes: Array("fresh".utf8)).hash
        try storage.writeAndWait { ctx in
            try store.retain(kept, in: ctx)
            try store.retain(released, in: ctx)
        }
        try storage.writeAndWait { try store.release(released, in: $0) }
        let staleTemp = blobDir + "/tmp/blob-1f.tmp"
        XCTAssertTrue(FileManager.default.createFile(atPath: staleTemp, contents: Data([1, 2])))
        let liveTemp = blobDir + "/tmp/blob-2e.tmp"
        let foreign = blobDir + "/tmp/upload-body"
        XCTAssertTrue(FileManager.default.createFile(atPath: liveTemp, contents: Data([3])))
        XCTAssertTrue(FileManager.default.createFile(atPath: foreign, contents: Data([4])))

        // Nothing is old enough for a one-hour threshold.
        XCTAssertEqual(try store.collectGarbage(olderThan: .seconds(3600)), 0)

        for hash in [kept, released, orphan] { try age(try XCTUnwrap(store.path(for: hash)), seconds: 7200) }
        try storage.writeAndWait { ctx in
            try ctx.db.run("UPDATE quartet_blobs SET unreferenced_since = unreferenced_since - 7200000 WHERE hash = ?",
                           [.text(released)])
        }
        try age(staleTemp, seconds: 7200)
        try age(foreign, seconds: 7200)

        XCTAssertEqual(try store.collectGarbage(olderThan: .seconds(3600)), 2)
        XCTAssertNotNil(store.path(for: kept))
        XCTAssertNotNil(store.path(for: fresh))
        XCTAssertNil(store.path(for: released))
        XCTAssertNil(store.path(for: orphan))
        XCTAssertNil(try store.referenceCount(released))
        XCTAssertFalse(FileManager.default.fileExists(atPath: staleTemp))
        XCTAssertTrue(FileManager.default.fileExists(atPath: liveTemp))
        // Other files sharing the temp folder are not the store's to delete.
        XCTAssertTrue(FileManager.default.fileExists(atPath: foreign))
    }

    func testStoringAgainProtectsABlobFromCollection() throws {
        let (store, _, _) = try makeStore()
        let hash = try store.store(bytes: [4, 5, 6]).hash
        try age(try XCTUnwrap(store.path(for: hash)), seconds: 7200)
        // Handed out again (about to be retained): it is fresh again.
        _ = try store.store(bytes: [4, 5, 6])
        XCTAssertEqual(try store.collectGarbage(olderThan: .seconds(3600)), 0)
        XCTAssertNotNil(store.path(for: hash))
    }

    func testConcurrentStoresOfSameContent() throws {
        let (store, _, _) = try makeStore()
        let bytes = (0..<100_000).map { UInt8(truncatingIfNeeded: $0) }
        let hashes = Collector<String>()
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            if let reference = try? store.store(bytes: bytes) { hashes.append(reference.hash) }
        }
        XCTAssertEqual(hashes.all.count, 8)
        XCTAssertEqual(Set(hashes.all).count, 1)
        let path = try XCTUnwrap(store.path(for: hashes.all[0]))
        XCTAssertEqual(FileManager.default.contents(atPath: path).map { [UInt8]($0) }, bytes)
    }
}
