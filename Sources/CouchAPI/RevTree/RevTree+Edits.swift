import Core

/// What a `new_edits=false` merge did (§5.4).
public enum ReplicatedMerge: Sendable, Hashable {
    /// The path's newest revision was already in the tree (as a leaf or an internal node, with or without
    /// a body): nothing changed, no sequence number is consumed, and the write still succeeds.
    case alreadyPresent
    /// The newest revision was added with a body; `attachedTo` is the existing revision the new chain
    /// hangs below, nil when the path became a new root branch (which may be a conflict; never an error).
    case added(attachedTo: RevID?)
}

extension RevTree {
    // MARK: Interactive edits (§5.3)

    /// The parent an interactive edit extends, by the rules of §5.3, or 409 `conflict`.
    ///
    /// - `requested`: the revision the request names (`_rev`, `?rev=`, the head of `_revisions`), if any.
    /// - `deleting`: whether the new revision is a deletion.
    /// - Returns: nil when the new revision is the document's first (it may be a generation-1 tombstone);
    ///   else the parent node. When every leaf is deleted and no revision is named, that is the winning
    ///   tombstone: re-creation continues the tree from it, and its id enters the new revision id.
    public func interactiveParent(requested: RevID?, deleting: Bool) throws(CouchError) -> RevNode? {
        guard let winner else {
            // No document: a create names no revision.
            guard requested == nil else { throw .conflict }
            return nil
        }
        if !winner.deleted {
            // Only a leaf can be extended: the winner, a losing leaf, or a deleted losing leaf (reviving
            // that branch). A stale (non-leaf) or unknown revision is a conflict.
            guard let requested, isLeaf(requested), let node = node(requested) else { throw .conflict }
            return node
        }
        // Every leaf is deleted. Naming a revision, even the tombstone itself, is a conflict (COUCHDB-292),
        // and so is deleting again.
        guard requested == nil, !deleting else { throw .conflict }
        return winner
    }

    /// Records the revision an interactive edit produced, as a child of `parent` (from
    /// `interactiveParent`) with a body. 409 `conflict` if the revision already exists or `parent` is no
    /// longer a leaf (the tree changed in between); 500 if the generation does not follow the parent's.
    public mutating func addInteractive(_ rev: RevID, parent: RevID?, deleted: Bool, seq: Int64) throws(CouchError) {
        guard !contains(rev) else { throw .conflict }
        var parentIndex = -1
        if let parent {
            guard let i = index(of: parent), isLeaf(parent) else { throw .conflict }
            guard rev.generation == parent.generation + 1 else { throw .internalError }
            parentIndex = i
        } else {
            guard isEmpty else { throw .conflict }
            guard rev.generation == 1 else { throw .internalError }
        }
        insertChain([rev], below: parentIndex, deleted: deleted, seq: seq)
    }

    /// The whole interactive edit for a revision whose attachments do not depend on its parent (no stubs):
    /// resolves the parent, computes the CouchDB revision id (§4.5) and records it. Returns the new id.
    /// Writes with attachment stubs resolve the parent first (`interactiveParent`), look the stubs up in
    /// it, and then hash and record the revision themselves.
    @discardableResult
    public mutating func applyInteractiveEdit(requested: RevID?, deleted: Bool, body: JSONObject,
                                              attachments: [RevisionHashAttachment] = [],
                                              seq: Int64) throws(CouchError) -> RevID {
        let parent = try interactiveParent(requested: requested, deleting: deleted)
        let rev = try RevisionHash.newRevID(parent: parent?.rev, deleted: deleted, body: body, attachments: attachments)
        try addInteractive(rev, parent: parent?.rev, deleted: deleted, seq: seq)
        return rev
    }

    // MARK: Replicated edits (§5.4)

    /// For a replicated write's attachment stubs (§5.6): the newest revision of `path`, older than the one
    /// being written, that is in the tree with its body stored; nil when there is none (then every stub
    /// is `missing_stub`). Call before `mergeReplicated`.
    public func stubReference(for path: RevPath) -> RevID? {
        for i in 1..<max(1, path.count) {
            let rev = path.revision(at: i)
            if let node = node(rev), node.hasBody { return rev }
        }
        return nil
    }

    /// Merges a replicated revision and its ancestry (§5.4). The newest revision of `path` gets the body
    /// (`deleted` is its flag); revisions between it and the newest one already in the tree are recorded
    /// without bodies; older path revisions absent from the tree are not added. Without any overlap the
    /// whole path becomes a new root branch. Stem afterwards.
    @discardableResult
    public mutating func mergeReplicated(_ path: RevPath, deleted: Bool, seq: Int64) -> ReplicatedMerge {
        guard !contains(path.newest) else { return .alreadyPresent }
        // The newest path revision present in the tree, if any: the attachment point.
        var attach = path.count
        var parentIndex = -1
        for i in 1..<max(1, path.count) {
            if let existing = index(of: path.revision(at: i)) {
                attach = i
                parentIndex = existing
                break
            }
        }
        let attachedTo = parentIndex >= 0 ? nodes[parentIndex].rev : nil
        // The revisions newer than the attachment point, oldest first.
        let chain = stride(from: attach - 1, through: 0, by: -1).map(path.revision(at:))
        insertChain(chain, below: parentIndex, deleted: deleted, seq: seq)
        return .added(attachedTo: attachedTo)
    }
}
