import XCTest
import Core
import Synchronization
@testable import CouchAPI

/// CouchDB's `sequential` id algorithm (§4.8).
final class SequentialIDsTests: XCTestCase {
    /// A deterministic random source (SplitMix64).
    private static func seeded(_ seed: UInt64) -> @Sendable (Int) -> [UInt8] {
        let state = Mutex(seed)
        return { count in
            state.withLock { s in
                (0..<count).map { _ in
                    s &+= 0x9E37_79B9_7F4A_7C15
                    var z = s
                    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
                    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
                    return UInt8(truncatingIfNeeded: z ^ (z >> 31))
                }
            }
        }
    }

    private func parts(_ id: String) -> (prefix: Substring, counter: Int) {
        (id.prefix(26), Int(id.suffix(6), radix: 16) ?? -1)
    }

    func testIDsAreSortedRunsWithBoundedSteps() {
        let ids = SequentialIDs(randomBytes: Self.seeded(1)).next(20_000)
        var prefixChanges = 0
        for (a, b) in zip(ids, ids.dropFirst()) {
            XCTAssertEqual(b.count, 32)
            XCTAssertTrue(b.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }, b)
            let (pa, ca) = parts(a), (pb, cb) = parts(b)
            if pa == pb {
                XCTAssertLessThan(a, b)
                XCTAssertTrue((1...SequentialIDs.maxStep).contains(cb - ca), "\(a) → \(b)")
            } else {
                // A new prefix only when the step would have passed 0xFFFFFF; the counter restarts low.
                prefixChanges += 1
                XCTAssertGreaterThan(ca + SequentialIDs.maxStep, 0xFF_FFFF)
                XCTAssertTrue((1...SequentialIDs.maxStep).contains(cb))
            }
        }
        // 16.7 million / 2047.5 average steps ≈ 8194 ids per prefix.
        XCTAssertEqual(prefixChanges, 2)
        XCTAssertTrue((1...SequentialIDs.maxStep).contains(parts(ids[0]).counter))
    }

    func testStepsUseTwelveBitsAndRedrawTheTopTwoValues() {
        // Scripted bytes: the prefix takes 13, then each step takes 2. 0x0FFE and 0x0FFF are redrawn;
        // the high nibble is ignored.
        let script: [UInt8] = Array(repeating: 0xAB, count: 13) + [0x00, 0x04] + [0x0F, 0xFE, 0xFF, 0xFF, 0xF0, 0x09]
            + [0x0F, 0xFD] + Array(repeating: 0, count: 40)
        let generator = SequentialIDs(randomBytes: { count in Array(script.prefix(count)) + Array(repeating: 0, count: max(0, count - script.count)) })
        let ids = generator.next(3)
        XCTAssertEqual(ids[0], String(repeating: "ab", count: 13) + "000005")
        XCTAssertEqual(ids[1], String(repeating: "ab", count: 13) + "00000f")          // + 0x009 + 1
        XCTAssertEqual(ids[2], String(repeating: "ab", count: 13) + "00100d")          // + 0xFFD + 1 = 4094
    }

    func testRealGeneratorsStartWithDifferentPrefixes() {
        let a = SequentialIDs().next(), b = SequentialIDs().next()
        XCTAssertNotEqual(a.prefix(26), b.prefix(26))
        XCTAssertEqual(SequentialIDs().next(0), [])
    }

    func testConcurrentCallersNeverGetTheSameID() {
        let generator = SequentialIDs()
        let ids = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            let mine = (0..<500).map { _ in generator.next() }
            ids.withLock { $0 += mine }
        }
        XCTAssertEqual(Set(ids.withLock { $0 }).count, 4_000)
    }
}
