import XCTest
import Core
@testable import CouchAPI

/// Replicated edits (`new_edits=false`, §5.4), winner selection (§5.2) and conflicts.
final class RevTreeReplicationTests: XCTestCase {
    func testNewDocumentPathBecomesABranchWithBodyOnlyAtTheTip() throws {
        var tree = RevTree()
        XCTAssertEqual(tree.mergeReplicated(try T.path(3, ["c", "b", "a"]), deleted: false, seq: 7), .added(attachedTo: nil))
        XCTAssertEqual(T.texts(tree.nodes), ["1-a", "2-b", "3-c"])
        XCTAssertEqual(tree.nodes.map(\.hasBody), [false, false, true])
        XCTAssertEqual(tree.nodes.map(\.seq), [7, 7, 7])
        XCTAssertEqual(tree.parent(of: try T.rev("3-c"))?.description, "2-b")
        XCTAssertNil(tree.parent(of: try T.rev("1-a")))
        XCTAssertEqual(tree.winner?.rev.description, "3-c")
    }

    func testStemmedPathRootsAboveGenerationOne() throws {
        var tree = RevTree()
        tree.mergeReplicated(try T.path(10, ["j", "i"]), deleted: false, seq: 1)
        XCTAssertEqual(T.texts(tree.nodes), ["9-i", "10-j"])
        XCTAssertEqual(tree.revisions(of: try T.rev("10-j"))?.json.serialized(), #"{"start":10,"ids":["j","i"]}"#)
    }

    func testExistingRevisionIsANoOp() throws {
        var tree = try T.tree([(3, ["c", "b", "a"])])
        let before = tree
        // The leaf, an internal body-less node, with any flag: no change at all.
        XCTAssertEqual(tree.mergeReplicated(try T.path(3, ["c", "b", "a"]), deleted: true, seq: 9), .alreadyPresent)
        XCTAssertEqual(tree.mergeReplicated(try T.path(2, ["b"]), deleted: false, seq: 9), .alreadyPresent)
        XCTAssertEqual(tree.mergeReplicated(try T.path(2, ["b", "zzz"]), deleted: false, seq: 9), .alreadyPresent)
        XCTAssertEqual(tree, before)
    }

    func testPathExtendingALeafRecordsTheGapWithoutBodies() throws {
        var tree = try T.tree([(2, ["b", "a"])])
        XCTAssertEqual(tree.mergeReplicated(try T.path(5, ["e", "d", "c", "b", "a"]), deleted: false, seq: 2),
                       .added(attachedTo: try T.rev("2-b")))
        XCTAssertEqual(T.texts(tree.nodes), ["1-a", "2-b", "3-c", "4-d", "5-e"])
        XCTAssertEqual(tree.nodes.map(\.hasBody), [false, true, false, false, true])
        XCTAssertEqual(T.texts(tree.leaves), ["5-e"])
        XCTAssertEqual(tree.revisions(of: try T.rev("5-e"))?.keys.map(\.suffix), ["e", "d", "c", "b", "a"])
    }

    func testOlderPathRevisionsAbsentFromTheTreeAreNotAdded() throws {
        // The tree was stemmed to start at 3-c; the incoming path reaches back to 1-a.
        var tree = try T.tree([(4, ["d", "c"])])
        tree.mergeReplicated(try T.path(5, ["e", "d", "c", "b", "a"]), deleted: false, seq: 2)
        XCTAssertEqual(T.texts(tree.nodes), ["3-c", "4-d", "5-e"])
    }

    func testConflictFromEachSide() throws {
        // Local edit 2-b on 1-a; the other side's 2-c arrives by replication: two live leaves.
        var tree = try T.tree([(2, ["b", "a"])])
        XCTAssertEqual(tree.mergeReplicated(try T.path(2, ["c", "a"]), deleted: false, seq: 2),
                       .added(attachedTo: try T.rev("1-a")))
        XCTAssertEqual(T.texts(tree.leaves), ["2-b", "2-c"])
        XCTAssertEqual(tree.winner?.rev.description, "2-c")
        XCTAssertEqual(T.texts(tree.conflicts), ["2-b"])
        // The other side, merging the same two revisions in the other order, agrees on the winner.
        let other = try T.tree([(2, ["c", "a"]), (2, ["b", "a"])])
        XCTAssertEqual(other.winner?.rev.description, "2-c")
        XCTAssertEqual(other.shape, tree.shape)
    }

    func testSpecWinnerExamples() throws {
        let aaa = "2-" + T.hex("a"), fff = "2-" + T.hex("f")
        let live = try T.tree([(2, [T.hex("a"), "r"]), (2, [T.hex("f"), "r"])])
        XCTAssertEqual(live.winner?.rev.description, fff)
        XCTAssertEqual(T.texts(live.conflicts), [aaa])
        XCTAssertEqual(live.deletedConflicts, [])
        let mixed = try T.tree([(3, ["x", "w", "r"]), (2, ["y", "r"])], deleted: ["3-x"])
        XCTAssertEqual(mixed.winner?.rev.description, "2-y")
        XCTAssertEqual(T.texts(mixed.deletedConflicts), ["3-x"])
        XCTAssertEqual(mixed.conflicts, [])
        XCTAssertFalse(mixed.isDeleted)
    }

    func testWinnerOrderOfManyLeaves() throws {
        let tree = try T.tree([(2, ["a", "r"]), (3, ["q", "b", "r"]), (2, ["z", "r"]), (4, ["d", "c", "b", "r"]),
                               (2, ["m", "r"])], deleted: ["4-d", "2-z"])
        XCTAssertEqual(T.texts(tree.leavesInWinnerOrder), ["3-q", "2-m", "2-a", "4-d", "2-z"])
        XCTAssertEqual(T.texts(tree.conflicts), ["2-m", "2-a"])
        XCTAssertEqual(T.texts(tree.deletedConflicts), ["4-d", "2-z"])
        // Ascending order for open_revs=all.
        XCTAssertEqual(T.texts(tree.leaves), ["2-a", "2-m", "2-z", "3-q", "4-d"])
    }

    func testNoOverlapMakesANewRoot() throws {
        var tree = try T.tree([(2, ["b", "a"])])
        XCTAssertEqual(tree.mergeReplicated(try T.path(2, ["y", "x"]), deleted: false, seq: 2), .added(attachedTo: nil))
        XCTAssertEqual(tree.nodes.filter { tree.parent(of: $0.rev) == nil }.count, 2)
        XCTAssertEqual(T.texts(tree.conflicts), ["2-b"])
    }

    func testDeletedTipFromReplication() throws {
        var tree = try T.tree([(1, ["a"])])
        tree.mergeReplicated(try T.path(2, ["b", "a"]), deleted: true, seq: 2)
        XCTAssertTrue(tree.isDeleted)
        XCTAssertEqual(tree.node(try T.rev("2-b"))?.deleted, true)
        XCTAssertEqual(tree.node(try T.rev("1-a"))?.deleted, false)
    }

    func testStubReferenceIsTheNewestStoredAncestorOnThePath() throws {
        var tree = try T.tree([(3, ["c", "b", "a"])])   // 1-a and 2-b without bodies, 3-c with one
        XCTAssertEqual(tree.stubReference(for: try T.path(5, ["e", "d", "c", "b", "a"]))?.description, "3-c")
        XCTAssertNil(tree.stubReference(for: try T.path(3, ["x", "b", "a"])))
        XCTAssertNil(tree.stubReference(for: try T.path(3, ["c"])))   // the written revision itself never counts
        tree.mergeReplicated(try T.path(4, ["d", "c"]), deleted: false, seq: 2)
        XCTAssertEqual(tree.stubReference(for: try T.path(6, ["f", "e", "d", "c"]))?.description, "4-d")
    }
}

extension RevTree {
    /// Each node as "rev<parent flags", ignoring sequence numbers (for comparing shapes).
    var shape: [String] {
        nodes.map { node in
            "\(node.rev)<\(parent(of: node.rev)?.description ?? "root") \(node.hasBody ? "body" : "-") \(node.deleted ? "deleted" : "live")"
        }
    }
}
