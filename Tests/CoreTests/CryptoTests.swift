import XCTest
@testable import Core

final class CryptoTests: XCTestCase {
    private func bytes(_ s: String) -> [UInt8] { Array(s.utf8) }

    func testDigestKnownAnswers() {
        XCTAssertEqual(Hex.encode(Crypto.sha256(bytes("abc"))), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        XCTAssertEqual(Hex.encode(Crypto.sha256([])), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        XCTAssertEqual(Hex.encode(Crypto.sha1(bytes("abc"))), "a9993e364706816aba3e25717850c26c9cd0d89d")
        XCTAssertEqual(Hex.encode(Crypto.md5(bytes("abc"))), "900150983cd24fb0d6963f7d28e17f72")
        XCTAssertEqual(Hex.encode(Crypto.md5([])), "d41d8cd98f00b204e9800998ecf8427e")
    }

    func testHMACSHA256RFC4231() {
        let key1 = [UInt8](repeating: 0x0b, count: 20)
        XCTAssertEqual(Hex.encode(Crypto.hmacSHA256(key: key1, data: bytes("Hi There"))),
                       "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7")
        XCTAssertEqual(Hex.encode(Crypto.hmacSHA256(key: bytes("Jefe"), data: bytes("what do ya want for nothing?"))),
                       "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
        // Case 6: key longer than the block size.
        XCTAssertEqual(Hex.encode(Crypto.hmacSHA256(key: [UInt8](repeating: 0xaa, count: 131),
                                                    data: bytes("Test Using Larger Than Block-Size Key - Hash Key First"))),
                       "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54")
        XCTAssertEqual(Hex.encode(Crypto.hmacSHA256(key: [], data: [])),
                       "b613679a0814d9ec772f95d778c35fc5ff1697c493715653c6c712144292c5ad")
    }

    func testHMACSHA1RFC2202() {
        XCTAssertEqual(Hex.encode(Crypto.hmacSHA1(key: [UInt8](repeating: 0x0b, count: 20), data: bytes("Hi There"))),
                       "b617318655057264e28bc0b6fb378c8ef146be00")
        XCTAssertEqual(Hex.encode(Crypto.hmacSHA1(key: bytes("Jefe"), data: bytes("what do ya want for nothing?"))),
                       "effcdf6ae5eb2fa2d27416d5f184df9c259a7c79")
    }

    func testRandomBytes() {
        XCTAssertEqual(Crypto.randomBytes(0), [])
        XCTAssertEqual(Crypto.randomBytes(-5), [])
        let a = Crypto.randomBytes(32), b = Crypto.randomBytes(32)
        XCTAssertEqual(a.count, 32)
        XCTAssertNotEqual(a, b)
        // 64 KiB of CSPRNG output uses every byte value.
        XCTAssertEqual(Set(Crypto.randomBytes(65_536)).count, 256)
    }

    func testConstantTimeEquals() {
        XCTAssertTrue(Crypto.constantTimeEquals([], []))
        XCTAssertTrue(Crypto.constantTimeEquals([1, 2, 3], [1, 2, 3]))
        XCTAssertFalse(Crypto.constantTimeEquals([1, 2, 3], [1, 2, 4]))
        XCTAssertFalse(Crypto.constantTimeEquals([1, 2, 3], [1, 2]))
        XCTAssertFalse(Crypto.constantTimeEquals([], [0]))
    }
}

/// MD5 answers of RFC 1321's test suite (the fetched-algorithm path used by Couch revision ids).
final class MD5Tests: XCTestCase {
    func testRFC1321Suite() {
        let cases: [(String, String)] = [
            ("", "d41d8cd98f00b204e9800998ecf8427e"),
            ("a", "0cc175b9c0f1b6a831c399e269772661"),
            ("message digest", "f96b697d7cb7938d525a2f31aaf161d0"),
            ("abcdefghijklmnopqrstuvwxyz", "c3fcd3d76192e4007dfb496cca67e13b"),
            ("12345678901234567890123456789012345678901234567890123456789012345678901234567890",
             "57edf4a22be3c955ac49da2e2107b67a"),
        ]
        for (input, digest) in cases {
            XCTAssertEqual(Hex.encode(Crypto.md5(Array(input.utf8))), digest, input)
        }
    }

    func testConcurrentCallsAgree() {
        // The fetched EVP_MD is shared between threads; every thread gets the same digest.
        let expected = Crypto.md5(Array("hello".utf8))
        DispatchQueue.concurrentPerform(iterations: 64) { _ in
            XCTAssertEqual(Crypto.md5(Array("hello".utf8)), expected)
        }
    }
}
