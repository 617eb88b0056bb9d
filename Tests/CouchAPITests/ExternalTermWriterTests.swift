import XCTest
import Core
@testable import CouchAPI

/// Each row of spec §4.5's encoding table, byte for byte, and the worked example.
final class ExternalTermWriterTests: XCTestCase {
    /// The bytes after the version byte 131.
    private func encode(_ body: (inout ExternalTermWriter) throws -> Void) rethrows -> [UInt8] {
        var writer = ExternalTermWriter()
        try body(&writer)
        XCTAssertEqual(writer.bytes.first, 131)
        return Array(writer.bytes.dropFirst())
    }

    private func encodeJSON(_ text: String) throws -> [UInt8] {
        let value = try CouchJSON.parse(Array(text.utf8))
        return try encode { try $0.json(value) }
    }

    private func hex(_ text: String) -> [UInt8] {
        Hex.decode(text.replacingOccurrences(of: " ", with: "")) ?? []
    }

    func testAtoms() {
        XCTAssertEqual(encode { $0.atom("true") }, hex("64 00 04 74 72 75 65"))
        XCTAssertEqual(encode { $0.atom("false") }, hex("64 00 05 66 61 6c 73 65"))
        XCTAssertEqual(encode { $0.atom("null") }, hex("64 00 04 6e 75 6c 6c"))
    }

    func testIntegerTagsFollowTheValue() {
        XCTAssertEqual(encode { $0.integer(0) }, hex("61 00"))
        XCTAssertEqual(encode { $0.integer(255) }, hex("61 ff"))
        XCTAssertEqual(encode { $0.integer(256) }, hex("62 00 00 01 00"))
        XCTAssertEqual(encode { $0.integer(-1) }, hex("62 ff ff ff ff"))
        XCTAssertEqual(encode { $0.integer(Int64(Int32.max)) }, hex("62 7f ff ff ff"))
        XCTAssertEqual(encode { $0.integer(Int64(Int32.min)) }, hex("62 80 00 00 00"))
        // One past INTEGER_EXT on either side: SMALL_BIG_EXT with a little-endian magnitude.
        XCTAssertEqual(encode { $0.integer(Int64(Int32.max) + 1) }, hex("6e 04 00 00 00 00 80"))
        XCTAssertEqual(encode { $0.integer(Int64(Int32.min) - 1) }, hex("6e 04 01 01 00 00 80"))
        XCTAssertEqual(encode { $0.integer(Int64.min) }, hex("6e 08 01 00 00 00 00 00 00 00 80"))
        XCTAssertEqual(encode { $0.integer(Int64.max) }, hex("6e 08 00 ff ff ff ff ff ff ff 7f"))
    }

    func testIntegerLiteralsBeyond64Bits() throws {
        XCTAssertEqual(try encodeJSON("12345678901234567890"), hex("6e 08 00 d2 0a 1f eb 8c a9 54 ab"))
        XCTAssertEqual(try encodeJSON("-18446744073709551616"), hex("6e 09 01 00 00 00 00 00 00 00 00 01"))
        // 2^2040 needs 256 magnitude bytes: the first size for LARGE_BIG_EXT `6f` with a u32 count.
        let twoTo2040 = power(of: 2, 2040)
        let large = try encodeJSON(twoTo2040)
        XCTAssertEqual(Array(large.prefix(6)), hex("6f 00 00 01 00 00"))
        XCTAssertEqual(large.count, 6 + 256)
        XCTAssertEqual(large.last, 1)
        XCTAssertTrue(large.dropFirst(6).dropLast().allSatisfy { $0 == 0 })
        // 2^2032 still fits SMALL_BIG_EXT's 255 bytes.
        XCTAssertEqual(Array(try encodeJSON(power(of: 2, 2032)).prefix(3)), hex("6e ff 00"))
        // Exact at any size: negative zero is the integer 0, and -0 in a list keeps it a byte list.
        XCTAssertEqual(try encodeJSON("-0"), hex("61 00"))
        XCTAssertEqual(try encodeJSON("[-0,7]"), hex("6b 00 02 00 07"))
    }

    func testFloatsAreBigEndianBinary64() throws {
        XCTAssertEqual(encode { $0.float(100) }, hex("46 40 59 00 00 00 00 00 00"))
        XCTAssertEqual(try encodeJSON("1.5"), hex("46 3f f8 00 00 00 00 00 00"))
        XCTAssertEqual(try encodeJSON("1e2"), try encodeJSON("100.0"))
        XCTAssertEqual(try encodeJSON("1E2"), try encodeJSON("100.0"))
        XCTAssertNotEqual(try encodeJSON("100"), try encodeJSON("100.0"))
        XCTAssertEqual(try encodeJSON("-0.0"), hex("46 80 00 00 00 00 00 00 00"))
        // Correct rounding: 0.1 is 0x3FB999999999999A; the halfway case 2^53 + 1 rounds to even, and a
        // digit past it tips it up.
        XCTAssertEqual(try encodeJSON("0.1"), hex("46 3f b9 99 99 99 99 99 9a"))
        XCTAssertEqual(try encodeJSON("9007199254740993.0"), hex("46 43 40 00 00 00 00 00 00"))
        XCTAssertEqual(try encodeJSON("9007199254740993.0000000001"), hex("46 43 40 00 00 00 00 00 01"))
        // Underflow: the smallest subnormal, and signed zero below it.
        XCTAssertEqual(try encodeJSON("4.9e-324"), hex("46 00 00 00 00 00 00 00 01"))
        XCTAssertEqual(try encodeJSON("-1e-400"), hex("46 80 00 00 00 00 00 00 00"))
    }

    func testOverflowingDecimalIsAnErrorNotAFloat() throws {
        // The Couch parser refuses it; a value built in code reaches the encoder and is refused there.
        XCTAssertThrowsError(try CouchJSON.parse(Array("1e400".utf8))) { XCTAssertEqual($0 as? CouchError, .invalidJSON) }
        let built = try XCTUnwrap(JSONNumber(text: "1e400"))
        XCTAssertThrowsError(try encode { try $0.json(.number(built)) }) {
            XCTAssertEqual($0 as? TermEncodingError, .decimalOverflow)
        }
        XCTAssertThrowsError(try RevisionHash.newRevID(parent: nil, deleted: false, body: ["n": .number(built)])) {
            XCTAssertEqual($0 as? CouchError, .invalidJSON)
        }
    }

    func testBinariesAndStrings() throws {
        XCTAssertEqual(try encode { try $0.binary([1, 2]) }, hex("6d 00 00 00 02 01 02"))
        XCTAssertEqual(try encodeJSON(#""""#), hex("6d 00 00 00 00"))
        XCTAssertEqual(try encodeJSON(#""\u0000/""#), hex("6d 00 00 00 02 00 2f"))
        XCTAssertEqual(try encodeJSON(#""\ud83d\ude00""#), hex("6d 00 00 00 04 f0 9f 98 80"))
    }

    func testTuplesAndObjects() throws {
        XCTAssertEqual(encode { $0.tupleHeader(arity: 3) }, hex("68 03"))
        XCTAssertEqual(try encodeJSON("{}"), hex("68 01 6a"))
        XCTAssertEqual(try encodeJSON(#"{"b":1,"a":null}"#),
                       hex("68 01 6c 00 00 00 02 68 02 6d 00 00 00 01 62 61 01 68 02 6d 00 00 00 01 61 64 00 04 6e 75 6c 6c 6a"))
    }

    func testListForms() throws {
        XCTAssertEqual(try encodeJSON("[]"), hex("6a"))
        XCTAssertEqual(try encodeJSON("[1,2,3]"), hex("6b 00 03 01 02 03"))
        XCTAssertEqual(try encodeJSON("[0,255]"), hex("6b 00 02 00 ff"))
        // One element that is not a byte turns the whole list into LIST_EXT.
        XCTAssertEqual(try encodeJSON("[1,256]"), hex("6c 00 00 00 02 61 01 62 00 00 01 00 6a"))
        XCTAssertEqual(try encodeJSON("[1,-1]"), hex("6c 00 00 00 02 61 01 62 ff ff ff ff 6a"))
        XCTAssertEqual(try encodeJSON("[1.0]"), hex("6c 00 00 00 01 46 3f f0 00 00 00 00 00 00 6a"))
        XCTAssertEqual(try encodeJSON(#"["a"]"#), hex("6c 00 00 00 01 6d 00 00 00 01 61 6a"))
        XCTAssertEqual(try encodeJSON("[[]]"), hex("6c 00 00 00 01 6a 6a"))
        // STRING_EXT holds at most 65535 elements; one more is a LIST_EXT of small integers.
        let atLimit = try encodeJSON("[" + Array(repeating: "7", count: 65_535).joined(separator: ",") + "]")
        XCTAssertEqual(Array(atLimit.prefix(3)), hex("6b ff ff"))
        XCTAssertEqual(atLimit.count, 3 + 65_535)
        let past = try encodeJSON("[" + Array(repeating: "7", count: 65_536).joined(separator: ",") + "]")
        XCTAssertEqual(Array(past.prefix(7)), hex("6c 00 01 00 00 61 07"))
        XCTAssertEqual(past.count, 5 + 2 * 65_536 + 1)
    }

    func testWorkedExampleBytes() throws {
        let expected = hex("""
            83 6c 00 00 00 05 64 00 05 66 61 6c 73 65 61 00 61 00 68 01 6c 00 00 00 01 68 02
            6d 00 00 00 03 76 61 6c 6d 00 00 00 02 72 30 6a 6a 6a
            """.replacingOccurrences(of: "\n", with: " "))
        XCTAssertEqual(expected.count, 45)
        let bytes = try RevisionHash.termBytes(parent: nil, deleted: false, body: ["val": "r0"], attachments: [])
        XCTAssertEqual(bytes, expected)
        XCTAssertEqual(Hex.encode(Crypto.md5(bytes)), "47f3268e7546965196b57572099f4372")
    }

    func testParentEntersAsGenerationAndRawKey() throws {
        let parent = try RevID(parsing: "1-47f3268e7546965196b57572099f4372")
        let bytes = try RevisionHash.termBytes(parent: parent, deleted: false, body: ["val": "r1"], attachments: [])
        XCTAssertEqual(Array(bytes[14..<37]), hex("61 01 6d 00 00 00 10 47 f3 26 8e 75 46 96 51 96 b5 75 72 09 9f 43 72"))
        // A non-MD5 parent (a 40-hex Couchbase Lite 2.x revision) enters as the binary of its ASCII text.
        let cbl = try RevID(parsing: "3-" + String(repeating: "ab", count: 20))
        let cblBytes = try RevisionHash.termBytes(parent: cbl, deleted: false, body: [:], attachments: [])
        XCTAssertEqual(Array(cblBytes[14..<21]), hex("61 03 6d 00 00 00 28"))
        XCTAssertEqual(Array(cblBytes[21..<61]), Array(String(repeating: "ab", count: 20).utf8))
    }

    func testV11DeletionBytes() throws {
        let parent = try RevID(parsing: "1-9c65296036141e575d32ba9c034dd3ee")
        let bytes = try RevisionHash.termBytes(parent: parent, deleted: true, body: [:], attachments: [])
        XCTAssertEqual(Array(bytes[6..<13]), hex("64 00 04 74 72 75 65"))
        // `true` is one byte shorter than `false`, so everything after it sits one byte earlier.
        XCTAssertEqual(Array(bytes[13..<20]), hex("61 01 6d 00 00 00 10"))
        XCTAssertEqual(Array(bytes[20..<36]), hex("9c65296036141e575d32ba9c034dd3ee"))
        XCTAssertEqual(Array(bytes[36...]), hex("68 01 6a 6a 6a"))
    }

    /// Decimal text of base^exponent, by repeated doubling of a digit array (independent of the encoder).
    private func power(of base: Int, _ exponent: Int) -> String {
        var digits = [1]   // little-endian decimal digits
        for _ in 0..<exponent {
            var carry = 0
            for i in digits.indices {
                let v = digits[i] * base + carry
                digits[i] = v % 10
                carry = v / 10
            }
            while carry > 0 {
                digits.append(carry % 10)
                carry /= 10
            }
        }
        return digits.reversed().map(String.init).joined()
    }
}

/// Integer literals past the exact-conversion bound.
final class ExternalTermWriterBoundTests: XCTestCase {
    private func encodeJSON(_ text: String) throws -> [UInt8] {
        let value = try CouchJSON.parse(Array(text.utf8))
        var writer = ExternalTermWriter()
        try writer.json(value)
        return Array(writer.bytes.dropFirst())
    }

    func testDeepestDocumentHashes() throws {
        // 512 levels, the parser's limit: the encoder recurses once per level.
        let nested = String(repeating: #"{"a":"#, count: 511) + "[1]" + String(repeating: "}", count: 511)
        guard case .object(let body) = try CouchJSON.parse(Array(nested.utf8)) else { return XCTFail("not an object") }
        let bytes = try RevisionHash.termBytes(parent: nil, deleted: false, body: body, attachments: [])
        // 18 header bytes up to the body; per level 68 01, 6c u32, 68 02, 6d u32 'a' (15 bytes); the innermost
        // STRING_EXT (4); one closing 6a per level; Atts and the outer tail (2).
        XCTAssertEqual(bytes.count, 18 + 511 * 15 + 4 + 511 + 2)
    }

    func testLiteralAtTheBoundIsExact() throws {
        let bytes = try encodeJSON("-" + String(repeating: "9", count: DecimalMagnitude.maxExactDigits))
        XCTAssertEqual(Array(bytes.prefix(5)), [0x6f, 0x00, 0x00, 0x06, 0xa5])   // LARGE_BIG_EXT, 1701 bytes
        XCTAssertEqual(bytes[5], 1)
    }

    func testLongerLiteralIsTheTaggedText() throws {
        let literal = "-1" + String(repeating: "0", count: DecimalMagnitude.maxExactDigits)
        let bytes = try encodeJSON(literal)
        let header: [UInt8] = [0x68, 0x02, 0x64, 0x00, 0x06] + Array("bignum".utf8) + [0x6d, 0x00, 0x00, 0x10, 0x02]
        XCTAssertEqual(Array(bytes.prefix(header.count)), header)
        XCTAssertEqual(Array(bytes.dropFirst(header.count)), Array(literal.utf8))
        // The number and the string of the same text are different revisions.
        XCTAssertNotEqual(try RevisionHash.newRevID(parent: nil, deleted: false, body: ["n": try CouchJSON.parse(literal)]),
                          try RevisionHash.newRevID(parent: nil, deleted: false, body: ["n": .string(literal)]))
    }
}
