import XCTest
@testable import Core

final class WordBytesTests: XCTestCase {
    /// For every byte value at every position of a word of filler bytes: `equal` and `below` are nonzero
    /// exactly when some byte matches, and `firstFlagged` names the first matching byte.
    func testFlagsAreExactAboutWhetherAnyByteMatches() {
        for filler: UInt8 in [0x41, 0x00, 0x7F, 0xFF, 0x20] {
            for value in 0...255 {
                for position in 0..<8 {
                    var bytes = [UInt8](repeating: filler, count: 8)
                    bytes[position] = UInt8(value)
                    let word = bytes.withUnsafeBufferPointer { buffer in
                        buffer.baseAddress.map { WordBytes.load($0, at: 0) } ?? 0
                    }
                    for probe: UInt8 in [0x22, 0x5C, 0x5F, 0x7F, UInt8(value)] {
                        let flags = WordBytes.equal(word, probe)
                        XCTAssertEqual(flags != 0, bytes.contains(probe), "equal \(probe) in \(bytes)")
                        if flags != 0, let first = WordBytes.firstFlagged(flags) {
                            XCTAssertEqual(first, bytes.firstIndex(of: probe))
                        }
                    }
                    for bound: UInt8 in [1, 14, 0x20, 0x80] {
                        let flags = WordBytes.below(word, bound)
                        XCTAssertEqual(flags != 0, bytes.contains { $0 < bound }, "below \(bound) in \(bytes)")
                        if flags != 0, let first = WordBytes.firstFlagged(flags) {
                            XCTAssertEqual(first, bytes.firstIndex { $0 < bound })
                        }
                    }
                }
            }
        }
    }
}
