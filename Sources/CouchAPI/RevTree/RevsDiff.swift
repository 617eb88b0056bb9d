import Core

/// One document's entry in a `_revs_diff` answer (§3.9).
public struct RevsDiff: Sendable, Hashable {
    /// Requested revisions that are not nodes of the tree (stemmed ones included), in request order,
    /// each once.
    public let missing: [RevID]
    /// Leaves whose generation is lower than that of some missing revision: revisions the client may
    /// already hold as ancestors (the CouchDB replicator passes them back as `atts_since`).
    public let possibleAncestors: [RevID]

    /// The entry for `requested` revisions of a document with forest `tree` (nil: unknown document); nil
    /// when nothing is missing, as such documents are left out of the answer.
    ///
    /// `possible_ancestors` follows `couch_db:possible_ancestors/2`: the leaves in winner order, kept when
    /// their generation is below the highest missing generation, and listed in the reverse of that order
    /// (CouchDB folds them onto a list). Unknown documents have none.
    public init?(tree: RevTree?, requested: [RevID]) {
        var seen = Set<RevID>()
        let missing = requested.filter { rev in seen.insert(rev).inserted && !(tree?.contains(rev) ?? false) }
        guard let highest = missing.map(\.generation).max() else { return nil }
        self.missing = missing
        possibleAncestors = (tree?.leavesInWinnerOrder ?? []).filter { $0.rev.generation < highest }.map(\.rev).reversed()
    }

    /// `{"missing":[…],"possible_ancestors":[…]}`, the latter omitted when empty.
    public var json: JSON {
        var object = JSONObject()
        object["missing"] = .array(missing.map(\.json))
        if !possibleAncestors.isEmpty { object["possible_ancestors"] = .array(possibleAncestors.map(\.json)) }
        return .object(object)
    }

    /// The `_missing_revs` (P2) form of the same result: just the missing revisions.
    public var missingJSON: JSON { .array(missing.map(\.json)) }
}
