import XCTest
@testable import Core

final class HMACSHA1KeyTests: XCTestCase {
    /// All seven HMAC-SHA1 cases of RFC 2202 §3, each checked twice on the same key (the prepared states
    /// are not consumed) and against the one-shot `Crypto.hmacSHA1`.
    func testRFC2202Vectors() {
        let cases: [([UInt8], [UInt8], String)] = [
            (Array(repeating: 0x0b, count: 20), Array("Hi There".utf8), "b617318655057264e28bc0b6fb378c8ef146be00"),
            (Array("Jefe".utf8), Array("what do ya want for nothing?".utf8), "effcdf6ae5eb2fa2d27416d5f184df9c259a7c79"),
            (Array(repeating: 0xaa, count: 20), Array(repeating: 0xdd, count: 50), "125d7342b9ac11cd91a39af48aa17b4f63f175d3"),
            (Array(1...25), Array(repeating: 0xcd, count: 50), "4c9007f4026250c6bc8414f9bf50c86c2d7235da"),
            (Array(repeating: 0x0c, count: 20), Array("Test With Truncation".utf8), "4c1a03424b55e07fe7f27be1d58bb9324a9a5a04"),
            (Array(repeating: 0xaa, count: 80), Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8),
             "aa4ae5e15272d00e95705637ce8a3b55ed402112"),
            (Array(repeating: 0xaa, count: 80),
             Array("Test Using Larger Than Block-Size Key and Larger Than One Block-Size Data".utf8),
             "e8e99d0f45237d786d6bbaa7965c7808bbff1a91"),
        ]
        for (key, data, expected) in cases {
            let prepared = HMACSHA1Key(key: key)
            XCTAssertEqual(Hex.encode(prepared.authenticate(data)), expected)
            XCTAssertEqual(Hex.encode(prepared.authenticate(data)), expected, "the key is reusable")
            XCTAssertEqual(prepared.authenticate(data), Crypto.hmacSHA1(key: key, data: data))
        }
    }

    /// Keys of every length around the block size (64: padded; 65: hashed first), the empty key and the
    /// empty message agree with the one-shot HMAC, as do messages spanning several blocks.
    func testAgreesWithTheOneShotHMACAtEveryBoundary() {
        for keyLength in [0, 1, 19, 20, 63, 64, 65, 128] {
            let key = (0..<keyLength).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) }
            let prepared = HMACSHA1Key(key: key)
            for messageLength in [0, 1, 55, 56, 63, 64, 65, 200] {
                let message = (0..<messageLength).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ 1) }
                XCTAssertEqual(prepared.authenticate(message), Crypto.hmacSHA1(key: key, data: message),
                               "key \(keyLength), message \(messageLength)")
            }
        }
    }

    func testConcurrentUse() {
        let key = HMACSHA1Key(key: Array("bar".utf8))
        let expected = Crypto.hmacSHA1(key: Array("bar".utf8), data: Array("message".utf8))
        DispatchQueue.concurrentPerform(iterations: 200) { _ in
            XCTAssertEqual(key.authenticate(Array("message".utf8)), expected)
        }
    }

    /// The Base64 written into memory equals `Base64.encode` for every remainder, and a short buffer
    /// gets nothing.
    func testBase64IntoMemory() {
        for count in 0...22 {
            let bytes = (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 250) }
            var out = [UInt8](repeating: 0, count: 40)
            let written = bytes.withUnsafeBytes { input in out.withUnsafeMutableBytes { Base64.encode(input, into: $0) } }
            XCTAssertEqual(written, Base64.encodedLength(count))
            XCTAssertEqual(String(decoding: out.prefix(written ?? 0), as: UTF8.self), Base64.encode(bytes))
        }
        var short = [UInt8](repeating: 0, count: 27)
        let written = [UInt8](repeating: 1, count: 20).withUnsafeBytes { input in
            short.withUnsafeMutableBytes { Base64.encode(input, into: $0) }
        }
        XCTAssertNil(written)
        XCTAssertEqual(short, [UInt8](repeating: 0, count: 27))
    }

    func testConstantTimeEqualsOverMemory() {
        let a: [UInt8] = [1, 2, 3], b: [UInt8] = [1, 2, 4]
        a.withUnsafeBytes { pa in
            b.withUnsafeBytes { pb in
                XCTAssertTrue(Crypto.constantTimeEquals(pa, pa))
                XCTAssertFalse(Crypto.constantTimeEquals(pa, pb))
                XCTAssertFalse(Crypto.constantTimeEquals(pa, UnsafeRawBufferPointer(rebasing: pa[0..<2])))
            }
        }
    }
}
