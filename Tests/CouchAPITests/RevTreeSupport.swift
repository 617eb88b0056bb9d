import XCTest
import Core
@testable import CouchAPI

/// Shorthands for the revision-tree tests.
enum T {
    /// A revision from its text.
    static func rev(_ text: String) throws -> RevID { try RevID(parsing: text) }

    /// A path from `_revisions`-style parts, newest first.
    static func path(_ start: Int, _ ids: [String]) throws -> RevPath {
        try RevPath(revisionsMember: .object(["start": .int(start), "ids": .array(ids.map(JSON.string))]))
    }

    /// 32 hex digits made of one repeated character, for readable digest revisions.
    static func hex(_ c: Character) -> String { String(repeating: c, count: 32) }

    /// Texts of revisions.
    static func texts(_ revs: [RevID]) -> [String] { revs.map(\.description) }

    /// Texts of nodes' revisions.
    static func texts(_ nodes: [RevNode]) -> [String] { nodes.map(\.rev.description) }

    /// A tree built from replicated paths (newest first), merged in order with sequences 1, 2, …;
    /// the newest revision of a path is a tombstone when its text is in `deleted`.
    static func tree(_ paths: [(Int, [String])], deleted: Set<String> = []) throws -> RevTree {
        var tree = RevTree()
        for (i, (start, ids)) in paths.enumerated() {
            let path = try path(start, ids)
            tree.mergeReplicated(path, deleted: deleted.contains(path.newest.description), seq: Int64(i + 1))
        }
        return tree
    }
}
