import XCTest
import Core

final class ASCIISplitTests: XCTestCase {
    /// Splitting on an ASCII byte gives what the Character-wise split gives for text without combining
    /// marks after a separator, empty pieces left out.
    func testMatchesCharacterSplit() {
        for text in ["", ".", "a", "a.b", ".a..b.", "rating", "-rating,name", ",,x,,", "é.日本.😀", "a.b.c.d.e", "x,"] {
            for (byte, character) in [(UInt8(ascii: "."), Character(".")), (UInt8(ascii: ","), Character(","))] {
                XCTAssertEqual(text.split(asciiByte: byte), text.split(separator: character), text)
                XCTAssertEqual(Substring(text).split(asciiByte: byte), text.split(separator: character), text)
            }
        }
        // A separator followed by a combining mark still separates (one Character to the other split).
        XCTAssertEqual("a.\u{301}b".split(asciiByte: UInt8(ascii: ".")), ["a", "\u{301}b"])
    }
}
