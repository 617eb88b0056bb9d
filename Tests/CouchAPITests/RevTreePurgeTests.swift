import XCTest
import Core
@testable import CouchAPI

/// `RevTree.purge` (spec §3.12): leaves and their unshared ancestors go; everything else stays.
final class RevTreePurgeTests: XCTestCase {
    private let x = T.hex("1"), y = T.hex("2"), a = T.hex("a"), f = T.hex("f")

    func testPurgingOneLeafKeepsTheSharedAncestor() throws {
        var tree = try T.tree([(2, [a, x]), (2, [f, x])])
        let (purged, removed) = tree.purge([try T.rev("2-\(f)")])
        XCTAssertEqual(T.texts(purged), ["2-\(f)"])
        XCTAssertEqual(T.texts(removed), ["2-\(f)"])
        XCTAssertEqual(T.texts(tree.leaves), ["2-\(a)"])
        XCTAssertEqual(tree.parent(of: try T.rev("2-\(a)")), try T.rev("1-\(x)"))
    }

    func testPurgingEveryLeafEmptiesTheTree() throws {
        var tree = try T.tree([(3, [y, a, x]), (2, [f, x])])
        let (purged, removed) = tree.purge([try T.rev("3-\(y)"), try T.rev("2-\(f)"), try T.rev("3-\(y)")])
        XCTAssertEqual(T.texts(purged), ["3-\(y)", "2-\(f)"])
        XCTAssertEqual(T.texts(removed), ["1-\(x)", "2-\(a)", "2-\(f)", "3-\(y)"])
        XCTAssertTrue(tree.isEmpty)
        XCTAssertNil(tree.winner)
    }

    func testNonLeavesAndUnknownRevisionsAreIgnored() throws {
        var tree = try T.tree([(3, [y, a, x])])
        let before = tree
        let (purged, removed) = tree.purge([try T.rev("2-\(a)"), try T.rev("1-\(x)"), try T.rev("9-\(f)")])
        XCTAssertTrue(purged.isEmpty)
        XCTAssertTrue(removed.isEmpty)
        XCTAssertEqual(tree, before)
    }

    func testABranchBelowAnotherBranchGoesUpToTheFork() throws {
        // 1-x → 2-a → 3-y and 2-a → 3-f: purging 3-f leaves 1-x → 2-a → 3-y.
        var tree = try T.tree([(3, [y, a, x]), (3, [f, a, x])])
        let (_, removed) = tree.purge([try T.rev("3-\(f)")])
        XCTAssertEqual(T.texts(removed), ["3-\(f)"])
        XCTAssertEqual(T.texts(tree.path(from: try T.rev("3-\(y)"))), ["3-\(y)", "2-\(a)", "1-\(x)"])
        // The result survives the stored encoding.
        XCTAssertEqual(try RevTree(encoded: tree.encoded()), tree)
    }
}
