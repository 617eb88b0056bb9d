import XCTest
import Core
@testable import CouchAPI

/// Revision id parsing and order (spec §4.4).
final class RevIDTests: XCTestCase {
    private let md5 = "47f3268e7546965196b57572099f4372"

    private func assertInvalid(_ text: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try RevID(parsing: text), text, file: file, line: line) { error in
            XCTAssertEqual(error as? CouchError, .invalidRevFormat, text, file: file, line: line)
        }
    }

    func testDigestSuffixIsNormalisedToLowercase() throws {
        let rev = try RevID(parsing: "1-" + md5.uppercased())
        XCTAssertEqual(rev.description, "1-" + md5)
        XCTAssertEqual(rev.generation, 1)
        XCTAssertTrue(rev.key.isDigest)
        XCTAssertEqual(rev.key.bytes, Hex.decode(md5))
        XCTAssertEqual(rev, try RevID(parsing: "1-" + md5))
    }

    func testGenerationDigits() throws {
        XCTAssertEqual(try RevID(parsing: "0007-abc").description, "7-abc")
        XCTAssertEqual(try RevID(parsing: "0-abc").generation, 0)
        XCTAssertEqual(try RevID(parsing: "2147483647-x").generation, 2_147_483_647)
        assertInvalid("2147483648-x")
        assertInvalid("99999999999999999999999-x")
        assertInvalid("-abc")
        assertInvalid("+1-abc")
        assertInvalid(" 1-abc")
        assertInvalid("1a-abc")
        assertInvalid("abc")
        assertInvalid("")
    }

    func testOtherSuffixesAreKeptLiterally() throws {
        let cbl = "3-" + String(repeating: "AB", count: 20)
        let rev = try RevID(parsing: cbl)
        XCTAssertEqual(rev.description, cbl)
        XCTAssertEqual(rev.key, .text(Array(String(repeating: "AB", count: 20).utf8)))
        // Split at the first dash: the rest may contain dashes.
        XCTAssertEqual(try RevID(parsing: "1-a-b").suffix, "a-b")
        XCTAssertEqual(try RevID(parsing: "1-" + String(repeating: "x", count: 256)).suffix.count, 256)
        assertInvalid("1-" + String(repeating: "x", count: 257))
        assertInvalid("1-")
        assertInvalid("1-a b")
        assertInvalid("1-a\u{7F}")
        assertInvalid("1-é")
        // 32 characters are read as hex or refused, never kept as text.
        assertInvalid("1-" + String(repeating: "g", count: 32))
        assertInvalid("1-" + String(md5.dropLast()) + "-")
    }

    func testJSONForms() throws {
        XCTAssertEqual(try RevID(json: .string("2-ab")).description, "2-ab")
        XCTAssertThrowsError(try RevID(json: .int(2))) { XCTAssertEqual($0 as? CouchError, .invalidRevFormat) }
        XCTAssertEqual(try RevID.list(json: ["1-a", "2-b"]).map(\.description), ["1-a", "2-b"])
        XCTAssertThrowsError(try RevID.list(json: "1-a")) { XCTAssertEqual($0 as? CouchError, .invalidRevList) }
        XCTAssertThrowsError(try RevID.list(json: ["1-a", 2])) { XCTAssertEqual($0 as? CouchError, .invalidRevFormat) }
    }

    func testOrderByGenerationThenKeyBytes() throws {
        let revs = try ["2-fff", "10-aaa", "2-aaa", "2-aa", "1-zzz"].map { text throws(CouchError) in try RevID(parsing: text) }
        XCTAssertEqual(revs.sorted().map(\.description), ["1-zzz", "2-aa", "2-aaa", "2-fff", "10-aaa"])
    }

    func testDigestOrderEqualsHexOrder() throws {
        let a = try RevID(parsing: "2-" + "0f" + String(repeating: "0", count: 30))
        let b = try RevID(parsing: "2-" + "a0" + String(repeating: "0", count: 30))
        XCTAssertLessThan(a, b)
        let low = try RevID(parsing: "2-" + String(repeating: "0", count: 31) + "1")
        let high = try RevID(parsing: "2-" + String(repeating: "0", count: 15) + "1" + String(repeating: "0", count: 16))
        XCTAssertLessThan(low, high)
    }

    func testMixedFormsCompareByBytes() throws {
        // A digest's first byte 0x61 ('a') against the text "a…": compared as raw bytes, as CouchDB does.
        let digest = try RevID(parsing: "2-61" + String(repeating: "0", count: 30))
        let shorter = try RevID(parsing: "2-a")
        let larger = try RevID(parsing: "2-b")
        XCTAssertLessThan(shorter, digest)   // proper prefix of the digest bytes
        XCTAssertLessThan(digest, larger)
        // A 16-character text with the same bytes as a digest is a different revision, ordered first.
        let bytes = "abcdefghijklmnop"
        let text = try RevID(parsing: "2-" + bytes)
        let sameBytes = try RevID(parsing: "2-" + Hex.encode(Array(bytes.utf8)))
        XCTAssertNotEqual(text, sameBytes)
        XCTAssertLessThan(text, sameBytes)
        XCTAssertFalse(sameBytes < text)
    }

    func testConstructorBounds() {
        XCTAssertNil(RevID(generation: -1, key: .text([0x61])))
        XCTAssertNil(RevID(generation: RevID.maxGeneration + 1, key: .text([0x61])))
        XCTAssertNotNil(RevID(generation: RevID.maxGeneration, key: .text([0x61])))
        XCTAssertNil(RevKey(digest: [1, 2, 3]))
        XCTAssertEqual(RevKey(digest: Array(0..<16))?.suffix, "000102030405060708090a0b0c0d0e0f")
    }
}
