import XCTest
@testable import Core

/// Strings are scanned eight bytes at a time; these put each kind of special byte at every position
/// around word boundaries to check that the fast path hands over to the byte-wise checks correctly.
final class JSONStringScanTests: XCTestCase {
    private func parse(_ bytes: [UInt8]) -> Result<JSON, JSONError> {
        Result { () throws(JSONError) -> JSON in try JSONParser.parse(bytes) }
    }

    func testSpecialBytesAtEveryOffset() {
        for prefix in 0..<24 {
            let plain = [UInt8](repeating: UInt8(ascii: "x"), count: prefix)
            let quote = [UInt8(ascii: "\"")]
            // Closing quote right after `prefix` plain bytes.
            XCTAssertEqual(try? parse(quote + plain + quote).get(), .string(String(repeating: "x", count: prefix)))
            XCTAssertEqual(try? parse([UInt8(ascii: "[")] + quote + plain + quote + [UInt8(ascii: "]")]).get(),
                           .array([.string(String(repeating: "x", count: prefix))]))
            // Escape after the plain run.
            XCTAssertEqual(try? parse(quote + plain + Array(#"\n"#.utf8) + plain + quote).get(),
                           .string(String(repeating: "x", count: prefix) + "\n" + String(repeating: "x", count: prefix)))
            // Control character: refused at its own offset.
            guard case .failure(.syntax(let offset, _)) = parse(quote + plain + [0x01] + plain + quote) else {
                return XCTFail("control character accepted at \(prefix)")
            }
            XCTAssertEqual(offset, prefix + 1)
            // Valid non-ASCII after the run.
            XCTAssertEqual(try? parse(quote + plain + [0xC3, 0xA9] + plain + quote).get(),
                           .string(String(repeating: "x", count: prefix) + "é" + String(repeating: "x", count: prefix)))
            // DEL (0x7F) is ordinary text.
            XCTAssertEqual(try? parse(quote + plain + [0x7F] + quote).get(),
                           .string(String(repeating: "x", count: prefix) + "\u{7F}"))
            // Invalid UTF-8 after the run is reported where it starts.
            guard case .failure(.invalidUTF8(let badOffset)) = parse(quote + plain + [0xFF] + plain + quote) else {
                return XCTFail("invalid byte accepted at \(prefix)")
            }
            XCTAssertEqual(badOffset, prefix + 1)
            // Unterminated after a long run.
            guard case .failure(.syntax(0, _)) = parse(quote + plain + plain) else {
                return XCTFail("unterminated string accepted at \(prefix)")
            }
        }
    }
}
