import XCTest
import Core
@testable import CouchAPI

/// Interactive edits (§5.3): every row of its table, with CouchDB's revision ids.
final class RevTreeInteractiveTests: XCTestCase {
    private func assertConflict(_ body: () throws -> Void, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try body(), file: file, line: line) { XCTAssertEqual($0 as? CouchError, .conflict, file: file, line: line) }
    }

    func testCreateAndEditChainGivesCouchDBsIDs() throws {
        var tree = RevTree()
        let r1 = try tree.applyInteractiveEdit(requested: nil, deleted: false, body: ["val": "r0"], seq: 1)
        let r2 = try tree.applyInteractiveEdit(requested: r1, deleted: false, body: ["val": "r1"], seq: 2)
        let r3 = try tree.applyInteractiveEdit(requested: r2, deleted: false, body: ["val": "r2"], seq: 3)
        XCTAssertEqual(T.texts([r1, r2, r3]), ["1-47f3268e7546965196b57572099f4372", "2-1d8171ab3a91475cfece749291e6f897",
                                               "3-3fb0a342d2ce092fdcc77856dbe8a2ef"])
        XCTAssertEqual(tree.winner?.rev, r3)
        XCTAssertEqual(tree.node(r2)?.seq, 2)
        XCTAssertTrue(tree.node(r1)?.hasBody ?? false)
        XCTAssertEqual(tree.parent(of: r3), r2)
        XCTAssertEqual(T.texts(tree.leaves), [r3.description])
    }

    func testConflictRulesOnALiveDocument() throws {
        var tree = RevTree()
        let r1 = try tree.applyInteractiveEdit(requested: nil, deleted: false, body: ["a": 1], seq: 1)
        try tree.applyInteractiveEdit(requested: r1, deleted: false, body: ["a": 2], seq: 2)
        // No revision named, a stale one, an unknown one: 409 each, and the tree is unchanged.
        let before = tree
        assertConflict { try tree.applyInteractiveEdit(requested: nil, deleted: false, body: [:], seq: 3) }
        assertConflict { try tree.applyInteractiveEdit(requested: r1, deleted: false, body: [:], seq: 3) }
        assertConflict { try tree.applyInteractiveEdit(requested: try T.rev("2-" + T.hex("0")), deleted: false, body: [:], seq: 3) }
        assertConflict { try tree.applyInteractiveEdit(requested: nil, deleted: true, body: [:], seq: 3) }
        XCTAssertEqual(tree, before)
    }

    func testNamingARevisionOfAMissingDocumentIsAConflict() throws {
        var tree = RevTree()
        assertConflict { try tree.applyInteractiveEdit(requested: try T.rev("1-abc"), deleted: false, body: [:], seq: 1) }
        XCTAssertTrue(tree.isEmpty)
    }

    func testFirstRevisionMayBeATombstone() throws {
        var tree = RevTree()
        let r1 = try tree.applyInteractiveEdit(requested: nil, deleted: true, body: [:], seq: 1)
        XCTAssertEqual(r1.description, "1-de715bf126efc93d225d9e3f8e8eb81a")   // D12
        XCTAssertTrue(tree.isDeleted)
        XCTAssertEqual(tree.winner?.rev, r1)
    }

    func testDeletionThenRecreationContinuesFromTheTombstone() throws {
        var tree = RevTree()
        let r1 = try tree.applyInteractiveEdit(requested: nil, deleted: false, body: ["a": 1], seq: 1)
        let tomb = try tree.applyInteractiveEdit(requested: r1, deleted: true, body: [:], seq: 2)
        XCTAssertTrue(tree.isDeleted)
        // Naming any revision, the tombstone included, is a conflict (COUCHDB-292); so is deleting again.
        assertConflict { try tree.applyInteractiveEdit(requested: tomb, deleted: false, body: ["a": 2], seq: 3) }
        assertConflict { try tree.applyInteractiveEdit(requested: r1, deleted: false, body: ["a": 2], seq: 3) }
        assertConflict { try tree.applyInteractiveEdit(requested: nil, deleted: true, body: [:], seq: 3) }
        // Re-creation without a revision: a child of the tombstone, hashed with it as parent.
        let r3 = try tree.applyInteractiveEdit(requested: nil, deleted: false, body: ["a": 2], seq: 3)
        XCTAssertEqual(r3.generation, 3)
        XCTAssertEqual(r3, try RevisionHash.newRevID(parent: tomb, deleted: false, body: ["a": 2]))
        XCTAssertEqual(tree.parent(of: r3), tomb)
        XCTAssertFalse(tree.isDeleted)
        XCTAssertEqual(tree.winner?.rev, r3)
        XCTAssertEqual(tree.deletedConflicts, [])
    }

    func testV11DeleteOfAReplicatedRevision() throws {
        var tree = RevTree()
        tree.mergeReplicated(try RevPath(single: T.rev("1-9c65296036141e575d32ba9c034dd3ee")), deleted: false, seq: 1)
        let tomb = try tree.applyInteractiveEdit(requested: T.rev("1-9c65296036141e575d32ba9c034dd3ee"), deleted: true,
                                                 body: [:], seq: 2)
        XCTAssertEqual(tomb.description, "2-056f5f44046ecafc08a2bc2b9c229e20")
    }

    func testRecreationUsesTheWinningTombstoneAmongSeveral() throws {
        // Two deleted branches: the winner (highest generation, then key) is the parent.
        var tree = try T.tree([(3, ["c", "b", "a"]), (2, ["z", "a"])], deleted: ["3-c", "2-z"])
        XCTAssertTrue(tree.isDeleted)
        XCTAssertEqual(tree.winner?.rev.description, "3-c")
        let parent = try tree.interactiveParent(requested: nil, deleting: false)
        XCTAssertEqual(parent?.rev.description, "3-c")
        let rev = try tree.applyInteractiveEdit(requested: nil, deleted: false, body: ["x": true], seq: 9)
        XCTAssertEqual(rev.generation, 4)
        XCTAssertEqual(T.texts(tree.leavesInWinnerOrder), [rev.description, "2-z"])
        XCTAssertEqual(T.texts(tree.deletedConflicts), ["2-z"])
    }

    func testEditingLosingLeavesKeepsOrResolvesTheConflict() throws {
        let a = "2-" + T.hex("a"), f = "2-" + T.hex("f")
        var tree = try T.tree([(2, [T.hex("a"), "r"]), (2, [T.hex("f"), "r"])])
        XCTAssertEqual(tree.winner?.rev.description, f)
        XCTAssertEqual(T.texts(tree.conflicts), [a])
        // Extending the losing leaf keeps the conflict (its branch now has the higher generation).
        let a3 = try tree.applyInteractiveEdit(requested: T.rev(a), deleted: false, body: ["v": 3], seq: 5)
        XCTAssertEqual(tree.winner?.rev, a3)
        XCTAssertEqual(T.texts(tree.conflicts), [f])
        // Deleting the (now losing) leaf resolves it.
        let tomb = try tree.applyInteractiveEdit(requested: T.rev(f), deleted: true, body: [:], seq: 6)
        XCTAssertEqual(tree.conflicts, [])
        XCTAssertEqual(tree.deletedConflicts, [tomb])
        XCTAssertEqual(tree.winner?.rev, a3)
        // Extending a deleted losing leaf with a live revision revives that branch.
        let revived = try tree.applyInteractiveEdit(requested: tomb, deleted: false, body: ["back": true], seq: 7)
        XCTAssertEqual(revived.generation, 4)
        XCTAssertEqual(tree.winner?.rev, revived)
        XCTAssertEqual(tree.conflicts, [a3])
        XCTAssertEqual(tree.deletedConflicts, [])
    }

    func testSecondCreateOfTheSameIDInOneRequestConflicts() throws {
        var tree = RevTree()
        try tree.applyInteractiveEdit(requested: nil, deleted: false, body: ["n": 1], seq: 1)
        assertConflict { try tree.applyInteractiveEdit(requested: nil, deleted: false, body: ["n": 1], seq: 2) }
    }

    func testTwoEditsOfTheSameRevisionTheFirstWins() throws {
        var tree = RevTree()
        let r1 = try tree.applyInteractiveEdit(requested: nil, deleted: false, body: [:], seq: 1)
        try tree.applyInteractiveEdit(requested: r1, deleted: false, body: ["first": true], seq: 2)
        assertConflict { try tree.applyInteractiveEdit(requested: r1, deleted: false, body: ["second": true], seq: 3) }
        XCTAssertEqual(tree.count, 2)
    }

    func testAddInteractiveGuards() throws {
        var tree = RevTree()
        let r1 = try tree.applyInteractiveEdit(requested: nil, deleted: false, body: [:], seq: 1)
        assertConflict { try tree.addInteractive(r1, parent: nil, deleted: false, seq: 2) }
        assertConflict { try tree.addInteractive(try T.rev("1-b"), parent: nil, deleted: false, seq: 2) }
        let r2 = try T.rev("2-b")
        try tree.addInteractive(r2, parent: r1, deleted: false, seq: 2)
        assertConflict { try tree.addInteractive(try T.rev("2-c"), parent: r1, deleted: false, seq: 3) }
        XCTAssertThrowsError(try tree.addInteractive(try T.rev("5-c"), parent: r2, deleted: false, seq: 3)) {
            XCTAssertEqual(($0 as? CouchError)?.status, 500)
        }
        var empty = RevTree()
        XCTAssertThrowsError(try empty.addInteractive(try T.rev("2-c"), parent: nil, deleted: false, seq: 1)) {
            XCTAssertEqual(($0 as? CouchError)?.status, 500)
        }
    }

    func testGenerationLimit() throws {
        var tree = RevTree()
        tree.mergeReplicated(try RevPath(single: T.rev("2147483647-a")), deleted: false, seq: 1)
        XCTAssertThrowsError(try tree.applyInteractiveEdit(requested: T.rev("2147483647-a"), deleted: false, body: [:], seq: 2)) {
            XCTAssertEqual(($0 as? CouchError)?.status, 400)
        }
    }
}
