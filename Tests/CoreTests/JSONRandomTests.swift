import XCTest
@testable import Core

/// Generated documents round-trip exactly, and corrupted ones are refused with an error, never a crash.
final class JSONRandomTests: XCTestCase {
    private static let samples: [String] = ["", "a", "key", "é", "😀", "\u{0}", "\n\t\"\\", "/", "\u{2028}", "x y z"]

    private func randomValue(_ g: inout SplitMix64, depth: Int) -> JSON {
        switch g.below(depth > 4 ? 5 : 7) {
        case 0: return .null
        case 1: return .bool(g.below(2) == 0)
        case 2: return .int(g.below(2_000_001) - 1_000_000)
        case 3: return .double(Double(g.below(1_000_000)) / Double(g.below(999) + 1) * (g.below(2) == 0 ? 1e-8 : 1e12))
        case 4: return .string(Self.samples[g.below(Self.samples.count)] + String(g.below(100)))
        case 5: return .array((0..<g.below(5)).map { _ in randomValue(&g, depth: depth + 1) })
        default:
            var object = JSONObject()
            for _ in 0..<g.below(6) {
                object[Self.samples[g.below(Self.samples.count)] + String(g.below(10))] = randomValue(&g, depth: depth + 1)
            }
            return .object(object)
        }
    }

    func testGeneratedDocumentsRoundTrip() throws {
        var g = SplitMix64(state: 42)
        for _ in 0..<500 {
            let value = randomValue(&g, depth: 0)
            let bytes = value.serializedBytes()
            let parsed = try JSONParser.parse(bytes)
            XCTAssertEqual(parsed, value)
            XCTAssertEqual(parsed.serializedBytes(), bytes)
            XCTAssertEqual(try JSONParser.parse(value.serializedBytes(sortedKeys: true)), value)
        }
    }

    func testCorruptedDocumentsNeverCrash() {
        var g = SplitMix64(state: 7)
        var refused = 0
        for _ in 0..<2000 {
            var bytes = randomValue(&g, depth: 0).serializedBytes()
            guard !bytes.isEmpty else { continue }
            for _ in 0...g.below(3) {
                let i = g.below(bytes.count)
                switch g.below(3) {
                case 0: bytes[i] = UInt8(truncatingIfNeeded: g.next())
                case 1: bytes.remove(at: i)
                default: bytes.insert(UInt8(truncatingIfNeeded: g.next()), at: i)
                }
                if bytes.isEmpty { break }
            }
            do {
                let value = try JSONParser.parse(bytes)
                // Whatever was accepted must serialize to something that parses to the same value.
                XCTAssertEqual(try JSONParser.parse(value.serializedBytes()), value)
            } catch {
                refused += 1
            }
        }
        XCTAssertGreaterThan(refused, 0)
    }
}
