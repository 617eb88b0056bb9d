import XCTest
import Core
@testable import CouchAPI

/// The stored binary form of a revision tree: exact layout, round trips, and refusal of damaged bytes.
final class RevTreeEncodingTests: XCTestCase {
    func testEmptyTree() throws {
        XCTAssertEqual(RevTree().encoded(), [1, 0])
        XCTAssertEqual(try RevTree(encoded: [1, 0]), RevTree())
    }

    func testLayoutOfASmallTree() throws {
        var tree = RevTree()
        tree.mergeReplicated(try T.path(2, [T.hex("a"), "x"]), deleted: true, seq: 300)
        let digest = [UInt8](repeating: 0xaa, count: 16)
        XCTAssertEqual(tree.encoded(), [1, 2,                                              // format, 2 nodes
                                        1, 0b000, 1, UInt8(ascii: "x"), 0, 0xac, 0x02,     // 1-x: text, root, seq 300
                                        1, 0b111] + digest + [1, 0xac, 0x02])              // 2-aa…: digest, deleted, body
    }

    func testRoundTripsOfVariedTrees() throws {
        var trees: [RevTree] = [
            try T.tree([(3, ["c", "b", "a"]), (2, ["x", "a"]), (1, ["q"])], deleted: ["2-x"]),
            try T.tree([(2147483647, [T.hex("f"), T.hex("e")]), (5, [String(repeating: "~", count: 256)])]),
        ]
        var edited = RevTree()
        var parent: RevID?
        for i in 0..<50 {
            parent = try edited.applyInteractiveEdit(requested: parent, deleted: i == 49, body: ["i": .int(i)],
                                                     seq: Int64.max - 60 + Int64(i))
        }
        edited.stem(limit: 20)
        edited.dropNonLeafBodies()
        trees.append(edited)
        for tree in trees {
            let bytes = tree.encoded()
            XCTAssertEqual(try RevTree(encoded: bytes), tree)
            XCTAssertEqual(try RevTree(encoded: bytes).shape, tree.shape)
        }
    }

    func testDigestRevisionsTakeAbout20Bytes() throws {
        var tree = RevTree()
        var parent: RevID?
        for i in 0..<100 {
            parent = try tree.applyInteractiveEdit(requested: parent, deleted: false, body: ["i": .int(i)], seq: 1_000_000 + Int64(i))
        }
        // Generation delta 1, flags 1, digest 16, parent distance 1, a three-byte sequence: 22 bytes.
        XCTAssertEqual(tree.encoded().count, 2 + 100 * 22)
    }

    func testEveryTruncationAndTrailingByteIsRefused() throws {
        let bytes = try T.tree([(3, ["c", T.hex("b"), "a"]), (2, ["x", "a"])]).encoded()
        for length in 0..<bytes.count {
            XCTAssertThrowsError(try RevTree(encoded: Array(bytes.prefix(length))), "length \(length)")
        }
        XCTAssertThrowsError(try RevTree(encoded: bytes + [0]))
    }

    func testInvariantViolationsAreRefused() {
        let x = UInt8(ascii: "x"), y = UInt8(ascii: "y")
        let cases: [(String, [UInt8])] = [
            ("version", [2, 0]),
            ("huge count", [1, 0xff, 0xff, 0xff, 0xff, 0x0f]),
            ("generation 0", [1, 1, 0, 0, 1, x, 0, 0]),
            ("unknown flags", [1, 1, 1, 0x08, 1, x, 0, 0]),
            ("empty key", [1, 1, 1, 0, 0, 0, 0]),
            ("non-printable key", [1, 1, 1, 0, 1, 0x20, 0, 0]),
            ("32-byte text key", [1, 1, 1, 0, 32] + [UInt8](repeating: x, count: 32) + [0, 0]),
            ("out of order", [1, 2, 1, 0, 1, y, 0, 0, 0, 0, 1, x, 0, 0]),
            ("duplicate", [1, 2, 1, 0, 1, x, 0, 0, 0, 0, 1, x, 0, 0]),
            ("parent beyond start", [1, 1, 1, 0, 1, x, 1, 0]),
            ("parent same generation", [1, 2, 1, 0, 1, x, 0, 0, 0, 0, 1, y, 1, 0]),
            ("parent two generations up", [1, 2, 1, 0, 1, x, 0, 0, 2, 0, 1, y, 1, 0]),
            ("generation past 2^31", [1, 1, 0x80, 0x80, 0x80, 0x80, 0x08, 0, 1, x, 0, 0]),
            ("sequence past Int64", [1, 1, 1, 0, 1, x, 0] + [UInt8](repeating: 0xff, count: 9) + [0x01]),
            ("varint past 64 bits", [1, 1, 1, 0, 1, x, 0] + [UInt8](repeating: 0xff, count: 9) + [0x02]),
        ]
        for (name, bytes) in cases {
            XCTAssertThrowsError(try RevTree(encoded: bytes), name)
        }
        // The same shapes with the damage removed decode.
        XCTAssertNoThrow(try RevTree(encoded: [1, 2, 1, 0, 1, x, 0, 0, 1, 0, 1, y, 1, 0]))
    }
}
