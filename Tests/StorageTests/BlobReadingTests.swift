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

/// `BlobStore.recentlyContains`: `contains` answered from memory for a second, but never past a removal the
/// store made itself, and a file removed from outside noticed once its entry is old.
final class BlobPresenceMemoTests: XCTestCase {
    /// A clock the test moves by hand.
    final class ManualClock: @unchecked Sendable {
        private let now = Locked<UInt64>(1_000)
        func advance(_ nanos: UInt64) { now.withLock { $0 += nanos } }
        var read: @Sendable () -> UInt64 { { [self] in now.withLock { $0 } } }
    }

    private func makeStore(_ clock: ManualClock) throws -> (BlobStore, Storage) {
        let (storage, dir) = try makeStorage(self)
        try Migrator.migrate(storage, migrations: [Migration(version: 1, name: "core", sql: """
            CREATE TABLE quartet_blobs (hash TEXT PRIMARY KEY, size INTEGER NOT NULL,
                refcount INTEGER NOT NULL DEFAULT 0, created_at INTEGER NOT NULL, unreferenced_since INTEGER);
            """)])
        let memo = BlobPresenceMemo(lifetimeNanos: 1_000_000_000, clock: clock.read)
        let store = try BlobStore(directory: dir + "/blobs", storage: storage, tempDirectory: nil, presence: memo)
        return (store, storage)
    }

    func testAFileRemovedFromOutsideIsNoticedOnceItsEntryIsOld() throws {
        let clock = ManualClock()
        let (store, _) = try makeStore(clock)
        let stored = try store.store(bytes: Array("original".utf8))
        let file = try XCTUnwrap(store.path(for: stored.hash))
        XCTAssertTrue(store.recentlyContains(stored.hash))
        try FileManager.default.removeItem(atPath: file)
        XCTAssertFalse(store.contains(stored.hash))
        // Seen less than a second ago: answered from memory.
        clock.advance(999_000_000)
        XCTAssertTrue(store.recentlyContains(stored.hash))
        // A second after it was seen, the disk is asked again.
        clock.advance(1_000_000)
        XCTAssertFalse(store.recentlyContains(stored.hash))
        // Absence is never remembered: the file back, it is found at once.
        XCTAssertTrue(FileManager.default.createFile(atPath: file, contents: Data("original".utf8)))
        XCTAssertTrue(store.recentlyContains(stored.hash))
        // Malformed and unknown hashes are as `contains` answers.
        XCTAssertFalse(store.recentlyContains("../etc/passwd"))
        XCTAssertFalse(store.recentlyContains(String(repeating: "ab", count: 32)))
    }

    func testGarbageCollectionForgetsWhatWasSeenBeforeItRemovesFiles() throws {
        let clock = ManualClock()
        let (store, storage) = try makeStore(clock)
        let released = try store.store(bytes: Array("released".utf8)).hash
        let kept = try store.store(bytes: Array("kept".utf8)).hash
        try storage.writeAndWait { ctx in
            try store.retain(released, in: ctx)
            try store.retain(kept, in: ctx)
        }
        try storage.writeAndWait { try store.release(released, in: $0) }
        XCTAssertTrue(store.recentlyContains(released))
        XCTAssertTrue(store.recentlyContains(kept))
        // Unreferenced for two hours, and its file as old: collected.
        let file = try XCTUnwrap(store.path(for: released))
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -7200)], ofItemAtPath: file)
        try storage.writeAndWait { ctx in
            try ctx.db.run("UPDATE quartet_blobs SET unreferenced_since = unreferenced_since - 7200000 WHERE hash = ?",
                           [.text(released)])
        }
        XCTAssertEqual(try store.collectGarbage(olderThan: .seconds(3600)), 1)
        // The clock has not moved: only the collection's own forgetting makes the removal seen at once.
        XCTAssertFalse(store.recentlyContains(released))
        XCTAssertTrue(store.recentlyContains(kept))
    }

    func testTheMemoStaysBounded() throws {
        let clock = ManualClock()
        let memo = BlobPresenceMemo(lifetimeNanos: 1_000_000_000, clock: clock.read)
        var looks = 0
        // Distinct hex strings (multiplying by an odd number is one-to-one), their first 16 digits varying.
        let hashes = (0..<UInt64(BlobPresenceMemo.capacity * 4)).map { index -> String in
            let digits = String(index &* 0x9E37_79B9_7F4A_7C15, radix: 16)
            return String(repeating: "0", count: 16 - digits.count) + digits + String(repeating: "0", count: 48)
        }
        XCTAssertEqual(Set(hashes).count, hashes.count)
        for hash in hashes {
            XCTAssertTrue(memo.contains(hash) { _ in looks += 1; return true })
        }
        XCTAssertEqual(looks, hashes.count)
        XCTAssertLessThanOrEqual(memo.rememberedCount, BlobPresenceMemo.capacity)
        XCTAssertGreaterThan(memo.rememberedCount, BlobPresenceMemo.capacity / 2)
        // The last one entered holds its place: answered from memory.
        XCTAssertTrue(memo.contains(hashes[hashes.count - 1]) { _ in looks += 1; return false })
        XCTAssertEqual(looks, hashes.count)
        // A hash sharing a place with a remembered one is not taken for it.
        let last = hashes[hashes.count - 1]
        guard let twin = hashes.dropLast().last(where: { BlobPresenceMemo.slot(of: $0) == BlobPresenceMemo.slot(of: last) })
        else { return XCTFail("no two hashes share a place among \(hashes.count)") }
        XCTAssertFalse(memo.contains(twin) { _ in looks += 1; return false })
        XCTAssertEqual(looks, hashes.count + 1)
        // Short and empty strings get a place in range too.
        for text in ["", "a", "abcdefg", "é"] {
            XCTAssertTrue((0..<BlobPresenceMemo.capacity).contains(BlobPresenceMemo.slot(of: text)))
        }
    }
}
