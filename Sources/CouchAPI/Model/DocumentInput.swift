import Core

/// A document as a client sends it (`PUT`, `POST`, a `_bulk_docs` element), split into its special
/// members and the body proper (spec §4.6).
public struct DocumentInput: Sendable {
    /// `_id`, validated (§4.3). `PUT` ignores it in favour of the URL.
    public var id: String?
    /// `_rev`, when present and `_revisions` is not (a `_revisions` member overrides it).
    public var rev: RevID?
    /// `_revisions`: the revision and its ancestry.
    public var revisions: RevPath?
    /// `_deleted`.
    public var deleted: Bool
    /// `_attachments` as sent (an object of attachment objects, names not yet validated); the
    /// attachment layer interprets stubs, inline data and `follows`.
    public var attachments: JSONObject?
    /// The body without the special members, keys in received order. Members §4.6 keeps (`_access`,
    /// `_replication_*`) stay in their place. This is the `Body` of the revision id (§4.5).
    public var body: JSONObject

    /// Splits `json`, which must be an object ("Document must be a JSON object" otherwise).
    ///
    /// Members are examined in order and the first bad one decides the error, as in CouchDB's
    /// `transfer_fields/3`: `_id` per §4.3 (`illegal_docid`), `_rev` per §4.4 ("Invalid rev format";
    /// not examined at all when `_revisions` is present, which overrides it), `_revisions` per
    /// `RevPath(revisionsMember:)`, `_deleted` a boolean and `_attachments` an object (else "Bad special
    /// document member: _{name}"), the read-only members clients echo back ignored, and any other
    /// `_`-prefixed member refused as a bad special member.
    public init(_ json: JSON, maxDocIDLength: Int = DocumentID.defaultMaxLength) throws(CouchError) {
        guard case .object(let object) = json else { throw .documentNotObject }
        id = nil
        rev = nil
        revisions = nil
        deleted = false
        attachments = nil
        // Most bodies have no special member at all: then the body is the object itself, not a copy.
        guard object.pairs.contains(where: { SpecialMembers.isSpecial($0.key) }) else {
            body = object
            return
        }
        let hasRevisions = object.contains("_revisions")
        var keepsSpecial = false
        for (key, value) in object where SpecialMembers.isSpecial(key) {
            // String `==` is canonical equivalence, but no non-ASCII text is canonically equivalent to these
            // names (no singleton decomposition yields `_` or a-z), so this matches exactly their bytes.
            switch key {
            case "_id": id = try DocumentID.validate(json: value, maxLength: maxDocIDLength)
            case "_rev": if !hasRevisions { rev = try RevID(json: value) }
            case "_revisions": revisions = try RevPath(revisionsMember: value)
            case "_deleted":
                guard case .bool(let flag) = value else { throw .badSpecialMember(key) }
                deleted = flag
            case "_attachments":
                guard case .object(let members) = value else { throw .badSpecialMember(key) }
                attachments = members
            default:
                switch SpecialMembers.handling(of: key) {
                case .ignored: continue
                case .kept: keepsSpecial = true
                case .refused: throw .badSpecialMember(key)
                }
            }
        }
        // Ordinary members and the special ones kept as such, in place (one pass over the members; the
        // names are only compared again when one of them is kept).
        body = object.keepingMembers { key, _ in
            !SpecialMembers.isSpecial(key) || (keepsSpecial && SpecialMembers.handling(of: key) == .kept)
        }
    }

    /// The revision the request names as its parent for an interactive edit (§5.3): the head of
    /// `_revisions`, else `_rev`; nil when neither is given.
    public var namedRevision: RevID? { revisions?.newest ?? rev }

    /// The path a `new_edits=false` write merges (§5.4): `_revisions`, else `_rev` alone. Neither → 400
    /// "When `new_edits: false`, the document needs `_rev` or `_revisions` specified".
    public func replicatedPath() throws(CouchError) -> RevPath {
        if let revisions { return revisions }
        guard let rev else { throw .newEditsFalseNeedsRev }
        return try RevPath(single: rev)
    }
}

/// How the members of §4.6 that have no meaning of their own are treated.
enum SpecialMembers {
    enum Handling {
        /// Read-only metadata that clients send back after reading it.
        case ignored
        /// Kept as an ordinary body member, in place (CouchDB keeps these).
        case kept
        /// "Bad special document member".
        case refused
    }

    /// True for member names starting with `_`.
    static func isSpecial(_ key: String) -> Bool { key.utf8.first == UInt8(ascii: "_") }

    /// Handling of a `_`-prefixed member other than `_id`, `_rev`, `_revisions`, `_deleted`, `_attachments`.
    static func handling(of key: String) -> Handling {
        switch key {
        case "_revs_info", "_conflicts", "_deleted_conflicts", "_local_seq":
            return .ignored
        case "_access", "_replication_state", "_replication_state_time", "_replication_state_reason",
             "_replication_id", "_replication_stats":
            return .kept
        default:
            return .refused
        }
    }
}
