import XCTest
@testable import CouchAPI

/// Decimal → binary magnitude conversion, checked by converting back with an independent routine.
final class DecimalMagnitudeTests: XCTestCase {
    /// Deterministic digits.
    private typealias Generator = SplitMix64

    /// Decimal text of little-endian magnitude bytes, by repeated division by 10^19 (schoolbook).
    private func decimal(_ bytes: [UInt8]) -> String {
        var limbs: [UInt64] = stride(from: 0, to: bytes.count, by: 8).map { start in
            var limb: UInt64 = 0
            for (i, byte) in bytes[start..<min(start + 8, bytes.count)].enumerated() { limb |= UInt64(byte) << UInt64(8 * i) }
            return limb
        }
        var chunks: [String] = []
        while !limbs.isEmpty {
            var remainder: UInt64 = 0
            for i in limbs.indices.reversed() {
                let (q, r) = UInt64(10_000_000_000_000_000_000).dividingFullWidth((remainder, limbs[i]))
                limbs[i] = q
                remainder = r
            }
            while limbs.last == 0 { limbs.removeLast() }
            chunks.append(String(remainder))
        }
        guard let top = chunks.popLast() else { return "0" }
        return top + chunks.reversed().map { String(repeating: "0", count: 19 - $0.count) + $0 }.joined()
    }

    private func roundTrip(_ digits: String, file: StaticString = #filePath, line: UInt = #line) {
        let bytes = DecimalMagnitude.littleEndianBytes(decimal: digits.utf8)
        XCTAssertNotEqual(bytes.last, 0, "minimal length", file: file, line: line)
        XCTAssertEqual(decimal(bytes), digits, "\(digits.count) digits", file: file, line: line)
    }

    func testKnownValues() {
        XCTAssertEqual(DecimalMagnitude.littleEndianBytes(decimal: "12345678901234567890".utf8),
                       [0xd2, 0x0a, 0x1f, 0xeb, 0x8c, 0xa9, 0x54, 0xab])
        XCTAssertEqual(DecimalMagnitude.littleEndianBytes(decimal: "18446744073709551616".utf8),
                       [0, 0, 0, 0, 0, 0, 0, 0, 1])
        XCTAssertEqual(DecimalMagnitude.littleEndianBytes(decimal: "0".utf8), [])
        XCTAssertEqual(DecimalMagnitude.littleEndianBytes(decimal: "000256".utf8), [0, 1])
    }

    func testRoundTripsAcrossSizes() {
        var g = Generator(state: 7)
        // Around one 19-digit step, and up to the exact-conversion bound.
        for count in [1, 2, 18, 19, 20, 37, 38, 39, 100, 1_000, 4_095, 4_096] {
            roundTrip(g.digits(count))
        }
        // Runs of zeros and nines stress the carries.
        roundTrip("1" + String(repeating: "0", count: 4_000))
        roundTrip(String(repeating: "9", count: 4_096))
        roundTrip("1" + String(repeating: "0", count: 2_000) + "1" + String(repeating: "0", count: 2_000))
        roundTrip("18446744073709551615")   // 2^64 − 1: one full limb
        roundTrip("18446744073709551616")   // 2^64: the carry into a second limb
    }

    func testRandomZeroRuns() {
        var g = Generator(state: 5)
        for _ in 0..<40 {
            var text = "1"
            while text.count < 100 + Int(g.next() % 3_900) {
                text += g.next() % 2 == 0 ? String(repeating: "0", count: Int(g.next() % 300)) : g.digits(Int(g.next() % 50) + 1)
            }
            roundTrip(String(text.prefix(4_096)))
        }
    }
}
