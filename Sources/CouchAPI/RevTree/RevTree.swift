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

    /// Position at which `rev` would be inserted to keep the order.
    private func insertionIndex(of rev: RevID) -> Int {
        var low = 0
        var high = nodes.count
        while low < high {
            let mid = low + (high - low) / 2
            if nodes[mid].rev < rev { low = mid + 1 } else { high = mid }
        }
        return low
    }

    /// Positions of the nodes without children, ascending.
    func leafIndices() -> [Int] {
        var hasChild = [Bool](repeating: false, count: nodes.count)
        for node in nodes where node.parentIndex >= 0 { hasChild[node.parentIndex] = true }
        return nodes.indices.filter { !hasChild[$0] }
    }

    /// Inserts a node absent from the tree under the node at `parentIndex` (−1: as a root), keeping the
    /// order, and returns its position. Positions at or after the insertion point move up by one.
    @discardableResult
    mutating func insert(_ rev: RevID, parentIndex: Int, deleted: Bool, hasBody: Bool, seq: Int64) -> Int {
        let position = insertionIndex(of: rev)
        for i in nodes.indices where nodes[i].parentIndex >= position { nodes[i].parentIndex += 1 }
        // The parent has a lower generation, so it sorts before the new node and keeps its position.
        nodes.insert(RevNode(rev: rev, deleted: deleted, hasBody: hasBody, seq: seq, parentIndex: parentIndex),
                     at: position)
        return position
    }

    /// Marks the node at `index` as having no stored body (compaction, stemming of bodies).
    mutating func clearBody(at index: Int) { nodes[index].hasBody = false }
}
