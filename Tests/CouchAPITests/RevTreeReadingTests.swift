import XCTest
import Core
@testable import CouchAPI

/// Revision metadata on read (§5.7, §3.3.1), `latest`, `atts_since` and `_revs_diff` (§3.9).
final class RevTreeReadingTests: XCTestCase {
    func testRevisionsAndRevsInfoAlongThePath() throws {
        var tree = try T.tree([(4, ["d", "c", "b", "a"])])          // only 4-d has a body
        tree.mergeReplicated(try T.path(5, ["e", "d"]), deleted: true, seq: 2)
        let e = try T.rev("5-e")
        XCTAssertEqual(tree.revisions(of: e)?.json.serialized(), #"{"start":5,"ids":["e","d","c","b","a"]}"#)
        XCTAssertEqual(tree.revsInfo(of: e).map { "\($0.rev) \($0.status.rawValue)" },
                       ["5-e deleted", "4-d available", "3-c missing", "2-b missing", "1-a missing"])
        XCTAssertEqual(tree.revsInfo(of: e).first?.json.serialized(), #"{"rev":"5-e","status":"deleted"}"#)
        // A non-leaf revision's path starts at itself.
        XCTAssertEqual(tree.revisions(of: try T.rev("3-c"))?.json.serialized(), #"{"start":3,"ids":["c","b","a"]}"#)
        XCTAssertNil(tree.revisions(of: try T.rev("9-z")))
        XCTAssertEqual(tree.revsInfo(of: try T.rev("9-z")), [])
    }

    func testDigestSuffixesAreWrittenInLowercaseHex() throws {
        let upper = T.hex("A")
        let tree = try T.tree([(1, [upper])])
        XCTAssertEqual(tree.revisions(of: try T.rev("1-" + upper))?.json.serialized(), "{\"start\":1,\"ids\":[\"\(T.hex("a"))\"]}")
    }

    func testLatestGivesTheLeavesBelow() throws {
        let tree = try T.tree([(3, ["c", "b", "a"]), (3, ["x", "b", "a"]), (2, ["y", "a"]), (1, ["q"])])
        XCTAssertEqual(T.texts(tree.leaves(descendingFrom: try T.rev("2-b"))), ["3-c", "3-x"])
        XCTAssertEqual(T.texts(tree.leaves(descendingFrom: try T.rev("1-a"))), ["2-y", "3-c", "3-x"])
        XCTAssertEqual(T.texts(tree.leaves(descendingFrom: try T.rev("3-c"))), ["3-c"])
        XCTAssertEqual(T.texts(tree.leaves(descendingFrom: try T.rev("1-q"))), ["1-q"])
        XCTAssertEqual(tree.leaves(descendingFrom: try T.rev("4-c")), [])
    }

    func testAttsSinceFindsTheNewestKnownRevisionOnThePath() throws {
        let tree = try T.tree([(4, ["d", "c", "b", "a"]), (3, ["x", "b", "a"])])
        let d = try T.rev("4-d")
        XCTAssertEqual(tree.attachmentsSinceGeneration(for: d, known: [try T.rev("2-b"), try T.rev("3-c")]), 3)
        XCTAssertEqual(tree.attachmentsSinceGeneration(for: d, known: [try T.rev("1-a")]), 1)
        // Revisions off the path (another branch, unknown ones) do not count.
        XCTAssertEqual(tree.attachmentsSinceGeneration(for: d, known: [try T.rev("3-x"), try T.rev("7-q")]), 0)
        XCTAssertEqual(tree.attachmentsSinceGeneration(for: d, known: []), 0)
        XCTAssertEqual(tree.attachmentsSinceGeneration(for: d, known: [d]), 4)
    }

    func testRevsDiff() throws {
        let tree = try T.tree([(3, ["c", "b", "a"]), (2, ["x", "a"])], deleted: ["2-x"])
        // Known revisions (body-less ancestors included) are not missing; nothing missing → no entry.
        XCTAssertNil(RevsDiff(tree: tree, requested: [try T.rev("1-a"), try T.rev("3-c"), try T.rev("2-x")]))
        let diff = try XCTUnwrap(RevsDiff(tree: tree, requested: [try T.rev("4-d"), try T.rev("1-a"), try T.rev("4-d"),
                                                                  try T.rev("3-z")]))
        XCTAssertEqual(T.texts(diff.missing), ["4-d", "3-z"])
        // Leaves below the highest missing generation (4): both, in reverse winner order.
        XCTAssertEqual(T.texts(diff.possibleAncestors), ["2-x", "3-c"])
        XCTAssertEqual(diff.json.serialized(), #"{"missing":["4-d","3-z"],"possible_ancestors":["2-x","3-c"]}"#)
        XCTAssertEqual(diff.missingJSON.serialized(), #"["4-d","3-z"]"#)
        // Only leaves of lower generation qualify.
        let low = try XCTUnwrap(RevsDiff(tree: tree, requested: [try T.rev("3-q")]))
        XCTAssertEqual(T.texts(low.possibleAncestors), ["2-x"])
        let none = try XCTUnwrap(RevsDiff(tree: tree, requested: [try T.rev("1-q")]))
        XCTAssertEqual(none.possibleAncestors, [])
        XCTAssertEqual(none.json.serialized(), #"{"missing":["1-q"]}"#)
    }

    func testRevsDiffOfUnknownDocumentsAndStemmedRevisions() throws {
        let unknown = try XCTUnwrap(RevsDiff(tree: nil, requested: [try T.rev("2-b"), try T.rev("1-a")]))
        XCTAssertEqual(T.texts(unknown.missing), ["2-b", "1-a"])
        XCTAssertEqual(unknown.possibleAncestors, [])
        XCTAssertNil(RevsDiff(tree: nil, requested: []))
        var tree = try T.tree([(3, ["c", "b", "a"])])
        tree.stem(limit: 1)
        XCTAssertEqual(T.texts(try XCTUnwrap(RevsDiff(tree: tree, requested: [try T.rev("1-a")])).missing), ["1-a"])
    }
}
