import Foundation
import Synchronization
import XCTest
@testable import Core

final class EncodingTests: XCTestCase {
    func testHex() {
        XCTAssertEqual(Hex.encode([]), "")
        XCTAssertEqual(Hex.encode([0x00, 0x0f, 0xab, 0xff]), "000fabff")
        XCTAssertEqual(Hex.decode("000FabFF"), [0x00, 0x0f, 0xab, 0xff])
        XCTAssertEqual(Hex.decode(""), [])
        XCTAssertNil(Hex.decode("abc"))
        XCTAssertNil(Hex.decode("zz"))
        XCTAssertNil(Hex.decode("0x12"))
        XCTAssertNil(Hex.decode("é0"))
        XCTAssertNil(Hex.decode(" 12"))
    }

    func testBase64RFC4648Vectors() {
        let vectors = [("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"), ("foob", "Zm9vYg=="),
                       ("fooba", "Zm9vYmE="), ("foobar", "Zm9vYmFy")]
        for (plain, encoded) in vectors {
            XCTAssertEqual(Base64.encode(Array(plain.utf8)), encoded)
            XCTAssertEqual(Base64.decode(encoded), Array(plain.utf8), encoded)
            XCTAssertEqual(Base64.decodeURLSafe(encoded), Array(plain.utf8), encoded)
        }
    }

    func testBase64StrictDecodeRejects() {
        for bad in ["Zg", "Zg=", "Zm9vY", "Zg===", "=Zg=", "Zm=v", "Zm9v\n", " Zm9v", "Zm9v====", "Zh==", "Zm9=",
                    "-_8=", "Zm9v!", "é===", "===="] {
            XCTAssertNil(Base64.decode(bad), bad)
        }
    }

    func testURLSafe() {
        let bytes: [UInt8] = [0xfb, 0xff, 0xfe, 0x01]
        XCTAssertEqual(Base64.encode(bytes), "+//+AQ==")
        XCTAssertEqual(Base64.encodeURLSafe(bytes), "-__-AQ")
        XCTAssertEqual(Base64.encodeURLSafe(bytes, padded: true), "-__-AQ==")
        XCTAssertEqual(Base64.decodeURLSafe("-__-AQ"), bytes)
        XCTAssertEqual(Base64.decodeURLSafe("-__-AQ=="), bytes)
        XCTAssertNil(Base64.decodeURLSafe("-__-AQ="))      // incomplete padding
        XCTAssertNil(Base64.decodeURLSafe("+//+AQ=="))     // standard alphabet
        XCTAssertNil(Base64.decodeURLSafe("-__-A"))        // lone final character
        XCTAssertNil(Base64.decodeURLSafe("-__-AR"))       // non-zero unused bits
        XCTAssertEqual(Base64.decodeURLSafe(""), [])
    }

    func testBase64RoundTripAllLengths() {
        for length in 0..<70 {
            let bytes = Crypto.randomBytes(length)
            XCTAssertEqual(Base64.decode(Base64.encode(bytes)), bytes)
            XCTAssertEqual(Base64.decodeURLSafe(Base64.encodeURLSafe(bytes)), bytes)
            XCTAssertEqual(Base64.decodeURLSafe(Base64.encodeURLSafe(bytes, padded: true)), bytes)
        }
    }

    func testRandomIDAlphanumeric() {
        XCTAssertEqual(RandomID.alphanumeric(0), "")
        XCTAssertEqual(RandomID.alphanumeric(-1), "")
        let allowed = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
        for length in [1, 10, 25, 1000] {
            let id = RandomID.alphanumeric(length)
            XCTAssertEqual(id.count, length)
            XCTAssertTrue(id.allSatisfy(allowed.contains), id)
        }
        // 62,000 characters: every symbol appears, and none is wildly over-represented.
        let big = RandomID.alphanumeric(62_000)
        var counts: [Character: Int] = [:]
        for c in big { counts[c, default: 0] += 1 }
        XCTAssertEqual(counts.count, 62)
        XCTAssertLessThan(counts.values.max() ?? .max, 1400)
        XCTAssertNotEqual(RandomID.alphanumeric(20), RandomID.alphanumeric(20))
    }

    func testRandomIDsFromThePoolAreDistinctAcrossThreads() {
        // Ten-character ids as objects draw them: many per pool block, from several threads at once.
        let ids = Mutex(Set<String>())
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            var mine: [String] = []
            for _ in 0..<2000 { mine.append(RandomID.alphanumeric(10)) }
            ids.withLock { $0.formUnion(mine) }
        }
        XCTAssertEqual(ids.withLock { $0.count }, 16_000, "a pool byte was handed out twice")
    }

    func testRandomIDHex() {
        let id = RandomID.hex(16)
        XCTAssertEqual(id.count, 32)
        XCTAssertNotNil(Hex.decode(id))
        XCTAssertEqual(RandomID.hex(0), "")
    }

    func testConfigErrorDescription() {
        let error = ConfigError(key: "parse.masterKey", reason: "must be a string")
        XCTAssertEqual(error.description, "parse.masterKey: must be a string")
        XCTAssertEqual(error.localizedDescription, "parse.masterKey: must be a string")
    }
}
