extension RevTree {
    /// `_purge` (§3.12): removes each of `revs` that is a leaf, together with every ancestor that no
    /// remaining leaf descends from. Revisions that are not leaves, or not in the tree, are ignored.
    /// Returns the leaves purged (in the order given, each once) and every node removed (ascending), whose
    /// bodies the store deletes. When no leaf remains the tree is empty: the document is gone.
    public mutating func purge(_ revs: [RevID]) -> (purged: [RevID], removed: [RevID]) {
        let leaves = leafIndices()
        let leafSet = Set(leaves)
        var purgedIndices = Set<Int>()
        var purged: [RevID] = []
        for rev in revs {
            if let i = index(of: rev), leafSet.contains(i), purgedIndices.insert(i).inserted { purged.append(rev) }
        }
        guard !purged.isEmpty else { return ([], []) }
        // A node stays when a remaining leaf is it or lies below it: walk up from every remaining leaf.
        var keep = [Bool](repeating: false, count: nodes.count)
        for leaf in leaves where !purgedIndices.contains(leaf) {
            var i = leaf
            while i >= 0, !keep[i] {
                keep[i] = true
                i = nodes[i].parentIndex
            }
        }
        // A kept node's parent is kept too (it lies on a remaining leaf's path), so no root appears.
        return (purged, keepOnly(keep))
    }
}
