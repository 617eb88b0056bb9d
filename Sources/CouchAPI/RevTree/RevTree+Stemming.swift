extension RevTree {
    /// `_revs_limit` when a database has not set one (§5.5).
    public static let defaultRevsLimit = 1000

    /// Stems the forest to `limit` revisions per root-to-leaf path (§5.5) and returns the revisions removed,
    /// ascending, so the store can delete their bodies.
    ///
    /// A node survives only if some leaf lies at most `limit − 1` generations below it on its path. That is
    /// CouchDB's rule (`couch_key_tree:stem/2` keeps the newest `limit` entries of every leaf's path), so
    /// leaves always survive, and a node whose parent is removed becomes a root with generation > 1.
    /// Limits below 1 are treated as 1.
    @discardableResult
    public mutating func stem(limit: Int) -> [RevID] {
        let limit = max(1, limit)
        // No path can be longer than the whole forest: with at most `limit` nodes nothing is removed, which
        // spares the passes below for almost every write.
        guard nodes.count > limit else { return [] }
        // Closest leaf generation below each node. Children sit after their parents, so a backward pass
        // sees every child before its parent.
        var nearestLeaf = [Int](repeating: .max, count: nodes.count)
        for i in leafIndices() { nearestLeaf[i] = nodes[i].rev.generation }
        for i in nodes.indices.reversed() where nodes[i].parentIndex >= 0 {
            let parent = nodes[i].parentIndex
            nearestLeaf[parent] = min(nearestLeaf[parent], nearestLeaf[i])
        }
        // nearestLeaf is a real generation for every node (every node has a leaf below or is one), so the
        // subtraction cannot overflow.
        let keep = nodes.indices.map { nearestLeaf[$0] - nodes[$0].rev.generation < limit }
        guard keep.contains(false) else { return [] }
        return keepOnly(keep)
    }

    /// Keeps the nodes whose `keep` entry is true, in their order, and returns the revisions of the others.
    /// Parents come before their children, so a kept node's parent has its new position when the node is
    /// reached; a node whose parent was removed becomes a root.
    mutating func keepOnly(_ keep: [Bool]) -> [RevID] {
        var newIndex = [Int](repeating: -1, count: nodes.count)
        var kept: [RevNode] = []
        var removed: [RevID] = []
        for (i, var node) in nodes.enumerated() {
            guard i < keep.count, keep[i] else {
                removed.append(node.rev)
                continue
            }
            node.parentIndex = node.parentIndex >= 0 ? newIndex[node.parentIndex] : -1
            newIndex[i] = kept.count
            kept.append(node)
        }
        self = RevTree(validatedNodes: kept)
        return removed
    }

    /// Compaction (§5.12): forgets the bodies of non-leaf revisions and returns those that had one, so the
    /// store can delete them. The nodes stay: compacted revisions remain known to `_revs_diff`.
    @discardableResult
    public mutating func dropNonLeafBodies() -> [RevID] {
        let leaves = Set(leafIndices())
        var dropped: [RevID] = []
        for i in nodes.indices where !leaves.contains(i) && nodes[i].hasBody {
            clearBody(at: i)
            dropped.append(nodes[i].rev)
        }
        return dropped
    }
}
