import XCTest
@testable import Core

/// MD5 fed in pieces equals the one-shot MD5 (RFC 1321 vectors and uneven chunkings).
final class MD5StreamTests: XCTestCase {
    private func streamed(_ bytes: [UInt8], chunk: Int) -> [UInt8] {
        var stream = Crypto.MD5Stream()
        var offset = 0
        while offset < bytes.count {
            let end = min(bytes.count, offset + chunk)
            bytes[offset..<end].withUnsafeBytes { stream.update($0) }
            offset = end
        }
        return stream.finalize()
    }

    func testRFC1321Vectors() {
        XCTAssertEqual(Hex.encode(streamed([], chunk: 1)), "d41d8cd98f00b204e9800998ecf8427e")
        XCTAssertEqual(Hex.encode(streamed(Array("abc".utf8), chunk: 1)), "900150983cd24fb0d6963f7d28e17f72")
        XCTAssertEqual(Hex.encode(streamed(Array("message digest".utf8), chunk: 5)), "f96b697d7cb7938d525a2f31aaf161d0")
    }

    func testChunkingDoesNotChangeTheDigest() {
        let bytes = (0..<1000).map { UInt8($0 % 253) }
        for chunk in [1, 7, 64, 65, 999, 4096] {
            XCTAssertEqual(streamed(bytes, chunk: chunk), Crypto.md5(bytes), "chunk \(chunk)")
        }
    }
}
