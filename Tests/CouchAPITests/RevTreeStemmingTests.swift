import XCTest
import Core
@testable import CouchAPI

/// Stemming to `_revs_limit` (§5.5) and compaction of bodies.
final class RevTreeStemmingTests: XCTestCase {
    /// A linear history of `count` interactive edits.
    private func chain(_ count: Int) throws -> (RevTree, [RevID]) {
        var tree = RevTree()
        var revs: [RevID] = []
        for i in 0..<count {
            revs.append(try tree.applyInteractiveEdit(requested: revs.last, deleted: false, body: ["i": .int(i)], seq: Int64(i + 1)))
        }
        return (tree, revs)
    }

    func testLinearHistoryKeepsTheNewestLimitRevisions() throws {
        var (tree, revs) = try chain(10)
        let removed = tree.stem(limit: 3)
        XCTAssertEqual(removed, Array(revs[0..<7]))
        XCTAssertEqual(tree.nodes.map(\.rev), Array(revs[7...]))
        XCTAssertNil(tree.parent(of: revs[7]))            // the new root, generation 8
        XCTAssertEqual(tree.revisions(of: revs[9])?.keys.count, 3)
        XCTAssertEqual(tree.revisions(of: revs[9])?.start, 10)
        // Stemmed revisions are unknown now.
        XCTAssertFalse(tree.contains(revs[6]))
        XCTAssertNil(tree.node(revs[0]))
        // Stemming again changes nothing; editing continues normally.
        XCTAssertEqual(tree.stem(limit: 3), [])
        let next = try tree.applyInteractiveEdit(requested: revs[9], deleted: false, body: [:], seq: 11)
        XCTAssertEqual(tree.stem(limit: 3), [revs[7]])
        XCTAssertEqual(T.texts(tree.path(from: next)), T.texts([next, revs[9], revs[8]]))
    }

    func testDefaultLimitLeavesShortHistoriesAlone() throws {
        var (tree, _) = try chain(20)
        XCTAssertEqual(tree.stem(limit: RevTree.defaultRevsLimit), [])
        XCTAssertEqual(tree.count, 20)
    }

    func testBranchesKeepTheirOwnNewestRevisions() throws {
        // 1-a → 2-b → 3-c → 4-d and 1-a → 2-e. With limit 2, the path to 4-d keeps 3-c and 4-d, the path to
        // 2-e keeps 1-a and 2-e: 2-b goes, and 3-c becomes a root while 1-a stays one.
        var tree = try T.tree([(4, ["d", "c", "b", "a"]), (2, ["e", "a"])])
        XCTAssertEqual(T.texts(tree.stem(limit: 2)), ["2-b"])
        XCTAssertEqual(T.texts(tree.nodes), ["1-a", "2-e", "3-c", "4-d"])
        XCTAssertNil(tree.parent(of: try T.rev("3-c")))
        XCTAssertEqual(tree.parent(of: try T.rev("2-e"))?.description, "1-a")
        XCTAssertEqual(tree.parent(of: try T.rev("4-d"))?.description, "3-c")
        XCTAssertEqual(T.texts(tree.leaves), ["2-e", "4-d"])
    }

    func testLeavesAlwaysSurvive() throws {
        var tree = try T.tree([(5, ["e", "d", "c", "b", "a"]), (2, ["x", "a"]), (3, ["y", "b", "a"])], deleted: ["2-x"])
        let leavesBefore = T.texts(tree.leaves)
        tree.stem(limit: 1)
        XCTAssertEqual(T.texts(tree.leaves), leavesBefore)
        XCTAssertEqual(tree.count, 3)
        XCTAssertEqual(tree.winner?.rev.description, "5-e")
        XCTAssertEqual(T.texts(tree.deletedConflicts), ["2-x"])
        // Nonsense limits act as 1.
        var other = try T.tree([(3, ["c", "b", "a"])])
        XCTAssertEqual(T.texts(other.stem(limit: 0)), ["1-a", "2-b"])
        XCTAssertEqual(other.stem(limit: -5), [])
    }

    func testStemmedTreeTurnsAnOldReplicatedPathIntoAConflict() throws {
        // CouchDB's "revs limit produces replication conflict": the incoming path no longer overlaps.
        var (tree, revs) = try chain(5)
        tree.stem(limit: 2)
        let oldBranch = try RevPath(start: 3, keys: [try T.rev("3-zzz").key, revs[1].key, revs[0].key])
        XCTAssertEqual(tree.mergeReplicated(oldBranch, deleted: false, seq: 6), .added(attachedTo: nil))
        XCTAssertEqual(T.texts(tree.conflicts), ["3-zzz"])
        XCTAssertEqual(tree.winner?.rev, revs[4])
    }

    func testLongReplicatedHistoryIsMergedWholeThenStemmed() throws {
        // 100,000 revisions in one `_revisions` path, attached below an existing leaf: merged in one pass,
        // then stemmed to the default limit.
        let keys = (0..<100_000).map { RevKey.digest(0, UInt64(100_000 - $0)) }
        var tree = RevTree()
        tree.mergeReplicated(try RevPath(start: 1, keys: [keys[99_999]]), deleted: false, seq: 1)
        XCTAssertEqual(tree.mergeReplicated(try RevPath(start: 100_000, keys: keys), deleted: false, seq: 2),
                       .added(attachedTo: RevID(generation: 1, key: keys[99_999])))
        XCTAssertEqual(tree.count, 100_000)
        XCTAssertEqual(tree.stem(limit: RevTree.defaultRevsLimit).count, 99_000)
        XCTAssertEqual(tree.count, 1_000)
        XCTAssertEqual(tree.nodes.first?.rev.generation, 99_001)
        XCTAssertEqual(tree.revisions(of: try XCTUnwrap(tree.winner?.rev))?.keys, Array(keys.prefix(1_000)))
    }

    func testCompactionDropsBodiesOfNonLeavesOnly() throws {
        var tree = try T.tree([(2, ["b", "a"]), (3, ["c", "b"]), (2, ["x", "a"])])
        // 1-a body-less; 2-b stored then extended by 3-c; 2-x and 3-c leaves.
        XCTAssertEqual(T.texts(tree.dropNonLeafBodies()), ["2-b"])
        XCTAssertEqual(tree.nodes.map(\.hasBody), [false, false, true, true])
        XCTAssertTrue(tree.contains(try T.rev("2-b")))
        XCTAssertEqual(tree.dropNonLeafBodies(), [])
    }
}
