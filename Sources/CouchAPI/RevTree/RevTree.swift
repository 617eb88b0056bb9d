/// One revision of a document's revision forest (spec §5.1).
public struct RevNode: Sendable, Hashable {
    /// The revision id; unique within its tree.
    public let rev: RevID
    /// Whether the revision is a deletion (a tombstone).
    public internal(set) var deleted: Bool
    /// Whether its body (and attachment list) is stored. Leaves always have one; ancestors known only
    /// from a replicated `_revisions` path, and bodies removed by compaction, do not.
    public internal(set) var hasBody: Bool
    /// Sequence number of the write that recorded this node (`_local_seq` of a stored revision).
    public internal(set) var seq: Int64
    /// Position of the parent in the tree's `nodes`, −1 for a root (its parent was never known or was
    /// stemmed away). Parents always sit before their children, as generations ascend.
    var parentIndex: Int
}

/// A document's revision forest: usually one tree, several after stemming or replication (spec §5.1).
///
/// A pure value: the store loads it (see `RevTree+Encoding.swift` for the compact binary form), applies
/// an edit, stems, and saves it back with the bodies it references. Nodes are kept sorted by revision
/// (generation, then rev key), which makes lookups binary searches, gives a deterministic serialised
/// form, puts every parent before its children (parent generation = child generation − 1), and yields
/// leaves in the ascending order `open_revs=all` lists them in.
public struct RevTree: Sendable, Hashable {
    /// The nodes in ascending revision order.
    public private(set) var nodes: [RevNode]

    /// An empty forest: the document does not exist.
    public init() { nodes = [] }

    /// A forest from nodes already validated and sorted (decoding, stemming).
    init(validatedNodes: [RevNode]) { nodes = validatedNodes }

    /// True when the document has no revision (it does not exist).
    public var isEmpty: Bool { nodes.isEmpty }

    /// Number of revisions recorded.
    public var count: Int { nodes.count }

    /// The node of `rev`, or nil when it is not in the tree (never recorded, or stemmed).
    public func node(_ rev: RevID) -> RevNode? {
        guard let i = index(of: rev) else { return nil }
        return nodes[i]
    }

    /// Whether `rev` is a node of the tree, with or without a body (what `_revs_diff` calls known).
    public func contains(_ rev: RevID) -> Bool { index(of: rev) != nil }

    /// The parent of `rev`, nil for a root or an unknown revision.
    public func parent(of rev: RevID) -> RevID? {
        guard let i = index(of: rev), nodes[i].parentIndex >= 0 else { return nil }
        return nodes[nodes[i].parentIndex].rev
    }

    /// Whether `rev` is in the tree and has no children.
    public func isLeaf(_ rev: RevID) -> Bool {
        guard let i = index(of: rev) else { return false }
        return !nodes.contains { $0.parentIndex == i }
    }

    /// Position of `rev` in `nodes`, by binary search.
    func index(of rev: RevID) -> Int? {
        var low = 0
        var high = nodes.count
        while low < high {
            let mid = low + (high - low) / 2
            if nodes[mid].rev < rev { low = mid + 1 } else { high = mid }
        }
        return low < nodes.count && nodes[low].rev == rev ? low : nil
    }

    /// Positions of the nodes without children, ascending.
    func leafIndices() -> [Int] {
        var hasChild = [Bool](repeating: false, count: nodes.count)
        for node in nodes where node.parentIndex >= 0 { hasChild[node.parentIndex] = true }
        return nodes.indices.filter { !hasChild[$0] }
    }

    /// Inserts a chain of revisions absent from the tree, oldest first, each the parent of the next, the
    /// first one below the node at `attachIndex` (−1: as a new root). Only the last one gets a body.
    ///
    /// One merge pass over the two sorted lists, whatever the chain's length: a replicated `_revisions`
    /// path may hold thousands of revisions, and inserting them one at a time (each shifting the array and
    /// renumbering parents) would be quadratic.
    mutating func insertChain(_ chain: [RevID], below attachIndex: Int, deleted: Bool, seq: Int64) {
        guard !chain.isEmpty else { return }
        var merged: [RevNode] = []
        merged.reserveCapacity(nodes.count + chain.count)
        var oldPosition = [Int](repeating: -1, count: nodes.count)
        var chainPosition = [Int](repeating: -1, count: chain.count)
        var i = 0
        var j = 0
        while i < nodes.count || j < chain.count {
            // The chain ascends by generation, so both lists are sorted and this is an ordinary merge.
            if j == chain.count || (i < nodes.count && nodes[i].rev < chain[j]) {
                oldPosition[i] = merged.count
                merged.append(nodes[i])
                i += 1
            } else {
                let last = j == chain.count - 1
                chainPosition[j] = merged.count
                merged.append(RevNode(rev: chain[j], deleted: last && deleted, hasBody: last, seq: seq, parentIndex: -1))
                j += 1
            }
        }
        for k in nodes.indices where nodes[k].parentIndex >= 0 {
            merged[oldPosition[k]].parentIndex = oldPosition[nodes[k].parentIndex]
        }
        merged[chainPosition[0]].parentIndex = attachIndex >= 0 ? oldPosition[attachIndex] : -1
        for k in chain.indices.dropFirst() { merged[chainPosition[k]].parentIndex = chainPosition[k - 1] }
        nodes = merged
    }

    /// Marks the node at `index` as having no stored body (compaction, stemming of bodies).
    mutating func clearBody(at index: Int) { nodes[index].hasBody = false }
}
