import Core

/// A revision and its ancestry, newest first: `(start, keys[0])`, `(start − 1, keys[1])`, … (spec §4.6
/// `_revisions`, §5.4). Generations are consecutive by construction, and every one is at least 1.
public struct RevPath: Sendable, Hashable {
    /// Generation of the newest revision.
    public let start: Int
    /// Rev keys, newest first; never empty.
    public let keys: [RevKey]

    /// A path from its parts; 400 `doc_validation` when `keys` is empty or `start` is smaller than the
    /// number of keys (an ancestor would have a generation below 1; Decision §4.6, wording ours); 400
    /// "Invalid rev format" when `start` is past the generation bound of §4.4.
    public init(start: Int, keys: [RevKey]) throws(CouchError) {
        guard !keys.isEmpty else { throw .docValidation("_revisions.ids must not be empty.") }
        guard start >= keys.count else {
            throw .docValidation("_revisions.start must not be less than the number of _revisions.ids.")
        }
        guard start <= RevID.maxGeneration else { throw .invalidRevFormat }
        self.start = start
        self.keys = keys
    }

    /// The path of a single revision (a `new_edits=false` write naming only `_rev`); generation 0 is
    /// refused as "Invalid rev format": only `_local` documents have it.
    public init(single rev: RevID) throws(CouchError) {
        guard rev.generation >= 1 else { throw .invalidRevFormat }
        start = rev.generation
        keys = [rev.key]
    }

    /// The newest revision: the one a write with this path creates or names.
    public var newest: RevID { revision(at: 0) }

    /// Number of revisions on the path.
    public var count: Int { keys.count }

    /// The revision at `index` (0 = newest); `index` is below `count` at every call site.
    func revision(at index: Int) -> RevID {
        // start ≥ count ≥ index + 1 and start ≤ maxGeneration: the generation is in 1…maxGeneration.
        RevID(boundedGeneration: start - index, key: keys[index])
    }

    /// The revisions, newest first.
    public var revisions: [RevID] { keys.indices.map(revision(at:)) }

    /// `{"start":G,"ids":[suffix, …]}` as `_revisions` is written on reads (§5.7).
    public var json: JSON {
        var object = JSONObject()
        object["start"] = .int(start)
        object["ids"] = .array(keys.map { .string($0.suffix) })
        return .object(object)
    }
}
