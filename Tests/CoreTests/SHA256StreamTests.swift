import XCTest
@testable import Core

/// SHA-256 through OpenSSL, in one piece and streamed: the vectors blob addressing was checked against.
final class SHA256StreamTests: XCTestCase {
    private func hex(_ text: String) -> String { hexHash(Array(text.utf8)) }
    private func hexHash(_ bytes: [UInt8]) -> String { Hex.encode(Crypto.sha256(bytes)) }

    func testStandardVectors() {
        XCTAssertEqual(hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        XCTAssertEqual(hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        XCTAssertEqual(hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
                       "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        XCTAssertEqual(hex("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu"),
                       "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1")
    }

    func testMillionAs() {
        XCTAssertEqual(hexHash([UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)),
                       "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    /// Lengths around the 55/56/64-byte padding boundaries (expected values from an independent implementation).
    func testPaddingBoundaries() {
        let expected: [Int: String] = [
            55: "463eb28e72f82e0a96c0a4cc53690c571281131f672aa229e0d45ae59b598b59",
            56: "da2ae4d6b36748f2a318f23e7ab1dfdf45acdc9d049bd80e59de82a60895f562",
            63: "29af2686fd53374a36b0846694cc342177e428d1647515f078784d69cdb9e488",
            64: "fdeab9acf3710362bd2658cdc9a29e8f9c757fcf9811603a8c447cd1d9151108",
            65: "4bfd2c8b6f1eec7a2afeb48b934ee4b2694182027e6d0fc075074f2fabb31781",
            119: "da18797ed7c3a777f0847f429724a2d8cd5138e6ed2895c3fa1a6d39d18f7ec6",
            120: "f52b23db1fbb6ded89ef42a23ce0c8922c45f25c50b568a93bf1c075420bbb7c",
        ]
        for (length, digest) in expected {
            let bytes = (0..<length).map { UInt8($0 % 251) }
            XCTAssertEqual(hexHash(bytes), digest, "length \(length)")
        }
    }

    func testIncrementalUpdatesMatchOneShot() {
        let bytes = (0..<1000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        let oneShot = Crypto.sha256(bytes)
        for split in [1, 3, 63, 64, 65, 500, 999] {
            var digest = Crypto.SHA256Stream()
            var index = 0
            while index < bytes.count {
                let end = min(bytes.count, index + split)
                digest.update(bytes[index..<end])
                index = end
            }
            let streamed = digest.finalize()
            XCTAssertEqual(streamed, oneShot, "chunk size \(split)")
        }
        XCTAssertEqual(oneShot.count, 32)
    }

    /// Raw-buffer pieces, empty ones included, as a blob is fed from its read buffer.
    func testStreamedMillionAsInChunksWithEmptyPieces() {
        let chunk = [UInt8](repeating: UInt8(ascii: "a"), count: 4096)
        var digest = Crypto.SHA256Stream()
        var remaining = 1_000_000
        while remaining > 0 {
            let n = min(remaining, chunk.count)
            chunk.withUnsafeBytes { digest.update(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
            chunk.withUnsafeBytes { digest.update(UnsafeRawBufferPointer(rebasing: $0[0..<0])) }
            remaining -= n
        }
        let streamed = digest.finalize()
        XCTAssertEqual(Hex.encode(streamed), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }
}
