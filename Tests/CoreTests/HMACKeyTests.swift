import XCTest
@testable import Core

final class HMACKeyTests: XCTestCase {
    /// RFC 2202 test cases 1-3 and 6, and agreement with the one-shot `Crypto.hmacSHA1`.
    func testMatchesRFC2202AndTheOneShotHMAC() throws {
        let cases: [([UInt8], [UInt8], String)] = [
            (Array(repeating: 0x0b, count: 20), Array("Hi There".utf8), "b617318655057264e28bc0b6fb378c8ef146be00"),
            (Array("Jefe".utf8), Array("what do ya want for nothing?".utf8), "effcdf6ae5eb2fa2d27416d5f184df9c259a7c79"),
            (Array(repeating: 0xaa, count: 20), Array(repeating: 0xdd, count: 50), "125d7342b9ac11cd91a39af48aa17b4f63f175d3"),
            (Array(repeating: 0xaa, count: 80), Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8),
             "aa4ae5e15272d00e95705637ce8a3b55ed402112"),
        ]
        for (key, data, expected) in cases {
            let prepared = try XCTUnwrap(HMACKey(sha1: key))
            XCTAssertEqual(Hex.encode(prepared.authenticate(data)), expected)
            XCTAssertEqual(prepared.authenticate(data), Crypto.hmacSHA1(key: key, data: data))
            XCTAssertEqual(Hex.encode(prepared.authenticate(data)), expected, "the key is reusable")
        }
        XCTAssertNil(HMACKey(sha1: []), "an empty key is left to the one-shot HMAC")
        XCTAssertEqual(try XCTUnwrap(HMACKey(sha1: [1])).authenticate([]), Crypto.hmacSHA1(key: [1], data: []))
    }

    func testConcurrentUse() throws {
        let key = try XCTUnwrap(HMACKey(sha1: Array("bar".utf8)))
        let expected = Crypto.hmacSHA1(key: Array("bar".utf8), data: Array("message".utf8))
        DispatchQueue.concurrentPerform(iterations: 200) { _ in
            XCTAssertEqual(key.authenticate(Array("message".utf8)), expected)
        }
    }
}
