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

    /// The writer's shortcut for a new document's tree gives the same bytes as merging the path into an
    /// empty tree, stemming and encoding, for every mix of key forms, deletion and stemming limit.
    func testEncodedNewPathMatchesMergeStemEncode() throws {
        let paths = [
            try T.path(1, [T.hex("a")]),
            try T.path(3, [T.hex("c"), T.hex("b"), T.hex("a")]),
            try T.path(9, ["x", T.hex("E"), "~y~", T.hex("0")]),
            try T.path(2147483647, [T.hex("f"), T.hex("e"), "z"]),
            try T.path(1200, (0..<1200).map { _ in T.hex("d") }.enumerated().map { $0.offset % 3 == 0 ? "k\($0.offset)" : $0.element }),
        ]
        for path in paths {
            for deleted in [false, true] {
                for limit in [-1, 0, 1, 2, 3, 5, 1000, 5000] {
                    for seq: Int64 in [0, 1, 300, Int64.max] {
                        var tree = RevTree()
                        tree.mergeReplicated(path, deleted: deleted, seq: seq)
                        tree.stem(limit: limit)
                        XCTAssertEqual(RevTree.encodedNewPath(path, deleted: deleted, seq: seq, limit: limit), tree.encoded(),
                                       "\(path.newest) deleted \(deleted) limit \(limit) seq \(seq)")
                    }
                }
            }
        }
    }

    /// The writer's shortcut for an interactive create (the new revision alone as a path) gives the same bytes
    /// as `addInteractive` in an empty tree, stemming and encoding.
    func testEncodedNewPathMatchesAnInteractiveCreate() throws {
        for key in [T.hex("a"), T.hex("0"), "x"] {
            let rev = try RevID(parsing: "1-" + key)
            for limit in [-1, 0, 1, 2, 1000] {
                for seq: Int64 in [0, 1, 300, Int64.max] {
                    var tree = RevTree()
                    try tree.addInteractive(rev, parent: nil, deleted: false, seq: seq)
                    tree.stem(limit: limit)
                    XCTAssertEqual(RevTree.encodedNewPath(try RevPath(single: rev), deleted: false, seq: seq, limit: limit),
                                   tree.encoded(), "\(rev) limit \(limit) seq \(seq)")
                }
            }
        }
    }

    func testRevisionTextsOfDigestsAndTexts() throws {
        let cases = [("1-" + T.hex("a"), "1-" + T.hex("a")), ("2147483647-" + T.hex("0"), "2147483647-" + T.hex("0")),
                     ("10-0123456789abcdef0123456789ABCDEF", "10-0123456789abcdef0123456789abcdef"),
                     ("0-x", "0-x"), ("12-abc", "12-abc"), ("007-" + T.hex("F"), "7-" + T.hex("f"))]
        for (text, expected) in cases {
            let rev = try RevID(parsing: text)
            XCTAssertEqual(rev.description, expected)
            XCTAssertEqual(try RevID(parsing: rev.description), rev)
        }
        XCTAssertEqual(RevKey.digest(0x0123456789abcdef, 0xfedcba9876543210).suffix, "0123456789abcdeffedcba9876543210")
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
