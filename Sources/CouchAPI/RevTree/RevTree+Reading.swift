import Core

/// Status of one revision in `_revs_info` (§3.3.1).
public enum RevStatus: String, Sendable, Hashable {
    /// The body is stored and the revision is not a deletion.
    case available
    /// The body is stored and the revision is a tombstone.
    case deleted
    /// The body is not stored (an ancestor known only by id, or a compacted body).
    case missing
}

/// One `_revs_info` entry.
public struct RevInfo: Sendable, Hashable {
    /// The revision.
    public let rev: RevID
    /// Its status.
    public let status: RevStatus

    /// `{"rev":"G-x","status":"…"}`.
    public var json: JSON {
        var object = JSONObject()
        object["rev"] = rev.json
        object["status"] = .string(status.rawValue)
        return .object(object)
    }
}

extension RevTree {
    /// The leaves in ascending revision order (how `open_revs=all` lists them, Decision §3.3.2).
    public var leaves: [RevNode] { leafIndices().map { nodes[$0] } }

    /// The leaves in winner order (§5.2): descending by (not deleted, generation, rev key). Every peer
    /// sorts the same way, so all replicas pick the same winner without talking to each other.
    /// `_conflicts`, `_deleted_conflicts` and `style=all_docs` use this order too.
    public var leavesInWinnerOrder: [RevNode] {
        leaves.sorted { a, b in
            // A live leaf beats any deleted one, whatever the generations.
            if a.deleted != b.deleted { return !a.deleted }
            return b.rev < a.rev
        }
    }

    /// The winning revision; nil when the document does not exist.
    public var winner: RevNode? { leavesInWinnerOrder.first }

    /// True when the document exists and every leaf is a tombstone (then the winner is one).
    public var isDeleted: Bool { winner?.deleted ?? false }

    /// `_conflicts`: live leaves other than the winner, in winner order.
    public var conflicts: [RevID] { leavesInWinnerOrder.dropFirst().filter { !$0.deleted }.map(\.rev) }

    /// `_deleted_conflicts`: deleted leaves other than the winner, in winner order.
    public var deletedConflicts: [RevID] { leavesInWinnerOrder.dropFirst().filter(\.deleted).map(\.rev) }

    /// The path of `rev` back to the oldest node still present: `rev` first, then its parent, and so on
    /// (body-less nodes included). Empty when `rev` is not in the tree.
    public func path(from rev: RevID) -> [RevNode] {
        guard var i = index(of: rev) else { return [] }
        var path = [nodes[i]]
        while nodes[i].parentIndex >= 0 {
            i = nodes[i].parentIndex
            path.append(nodes[i])
        }
        return path
    }

    /// `_revisions` of `rev` (§5.7): its generation and the keys of its path, newest first.
    public func revisions(of rev: RevID) -> RevPath? {
        let path = path(from: rev)
        guard !path.isEmpty else { return nil }
        // A path in the tree has consecutive generations ending at ≥ 1, so RevPath's checks pass.
        return try? RevPath(start: rev.generation, keys: path.map(\.rev.key))
    }

    /// `_revs_info` of `rev` (§3.3.1): its path, newest first, each with its status.
    public func revsInfo(of rev: RevID) -> [RevInfo] {
        path(from: rev).map { node in
            RevInfo(rev: node.rev, status: !node.hasBody ? .missing : node.deleted ? .deleted : .available)
        }
    }

    /// With `latest=true` (§3.3.2, `_bulk_get`): the leaves descending from `rev` (`rev` itself when it is a
    /// leaf), ascending; empty when `rev` is not in the tree.
    public func leaves(descendingFrom rev: RevID) -> [RevNode] {
        guard let root = index(of: rev) else { return [] }
        // Children sit after their parents, so one forward pass marks the whole subtree.
        var inSubtree = [Bool](repeating: false, count: nodes.count)
        inSubtree[root] = true
        for i in (root + 1)..<max(root + 1, nodes.count) where nodes[i].parentIndex >= 0 && inSubtree[nodes[i].parentIndex] {
            inSubtree[i] = true
        }
        return leafIndices().filter { inSubtree[$0] }.map { nodes[$0] }
    }

    /// For `atts_since` (§5.6): walking `rev`'s path from `rev` towards the root, the generation of the first
    /// revision contained in `known`; 0 when there is none. Attachments with a `revpos` above it are sent
    /// with their data, the others as stubs.
    public func attachmentsSinceGeneration(for rev: RevID, known: some Sequence<RevID>) -> Int {
        let known = Set(known)
        guard !known.isEmpty else { return 0 }
        return path(from: rev).first { known.contains($0.rev) }?.rev.generation ?? 0
    }
}
