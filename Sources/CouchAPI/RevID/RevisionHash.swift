import Core

/// One attachment as it enters a revision id: name, content type and the 16 raw bytes of the stored MD5
/// digest (§4.5 `Atts`).
public struct RevisionHashAttachment: Sendable, Hashable {
    /// The attachment's name.
    public var name: String
    /// Its `content_type`.
    public var contentType: String
    /// MD5 of the stored bytes (16 bytes; the `md5-` digest decoded).
    public var md5: [UInt8]

    /// An attachment entry for hashing.
    public init(name: String, contentType: String, md5: [UInt8]) {
        self.name = name
        self.contentType = contentType
        self.md5 = md5
    }
}

/// CouchDB's `new_revid` (spec §4.5): the id of an interactively written revision is
/// `(OldStart + 1) "-" hex(MD5(term_to_binary([Deleted, OldStart, OldRev, Body, Atts], [{minor_version, 1}])))`,
/// so the same edit gives the same `_rev` here as on CouchDB 3.3.
public enum RevisionHash {
    /// The id of a new revision.
    ///
    /// - Parameters:
    ///   - parent: the revision it extends; nil for a document's first revision. For the re-creation of a
    ///     deleted document it is the winning tombstone (§5.3); the caller resolves that.
    ///   - deleted: whether the new revision is a deletion.
    ///   - body: the new revision's body without the special members §4.6 strips (kept ones such as
    ///     `_access` stay in place), keys in received order; `{}` for a `DELETE`.
    ///   - attachments: the new revision's attachment list in its own order (§4.7); reversed here, as
    ///     CouchDB's fold builds it.
    /// - Throws: 400 "invalid UTF-8 JSON" for a decimal literal beyond binary64 (the Couch parser refuses
    ///   those first), 400 `bad_request` when the parent is at the generation limit, 413 for impossible
    ///   lengths.
    public static func newRevID(parent: RevID?, deleted: Bool, body: JSONObject,
                                attachments: [RevisionHashAttachment] = []) throws(CouchError) -> RevID {
        try newRevID(parent: parent, deleted: deleted, body: .tree(body), attachments: attachments)
    }

    /// The body as it enters the term: the parsed object, or its term already encoded (a body read without
    /// a tree, `ExternalTermWriter.compactObject`).
    enum Body {
        case tree(JSONObject)
        case term([UInt8])
    }

    /// `newRevID(parent:deleted:body:attachments:)` for either form of the body.
    static func newRevID(parent: RevID?, deleted: Bool, body: Body,
                         attachments: [RevisionHashAttachment] = []) throws(CouchError) -> RevID {
        let term: [UInt8]
        do {
            term = try termBytes(parent: parent, deleted: deleted, body: body, attachments: attachments)
        } catch {
            switch error {
            case .decimalOverflow: throw .invalidJSON
            case .tooLong: throw .tooLarge
            }
        }
        let generation = (parent?.generation ?? 0) + 1
        guard let key = RevKey(digest: Crypto.md5(term)),
              let rev = RevID(generation: generation, key: key) else {
            throw .badRequest("Revision generation is too large")
        }
        return rev
    }

    /// `term_to_binary([Deleted, OldStart, OldRev, Body, Atts], [{minor_version, 1}])`.
    static func termBytes(parent: RevID?, deleted: Bool, body: JSONObject,
                          attachments: [RevisionHashAttachment]) throws(TermEncodingError) -> [UInt8] {
        try termBytes(parent: parent, deleted: deleted, body: .tree(body), attachments: attachments)
    }

    /// `termBytes(parent:deleted:body:attachments:)` for either form of the body.
    static func termBytes(parent: RevID?, deleted: Bool, body: Body,
                          attachments: [RevisionHashAttachment]) throws(TermEncodingError) -> [UInt8] {
        var capacity = 256
        if case .term(let encoded) = body { capacity = 64 &+ encoded.count }
        var writer = ExternalTermWriter(capacity: capacity)
        // The outer list has an atom as its first element, so it is never a STRING_EXT.
        try writer.listHeader(count: 5)
        if deleted { writer.atom("true") } else { writer.atom("false") }
        if let parent {
            writer.integer(Int64(parent.generation))
            // OldRev is the parent's rev key: 16 raw bytes for an MD5 suffix, the ASCII text otherwise.
            try writer.binary(parent.key.bytes)
        } else {
            // No parent: OldStart 0 and OldRev the *integer* 0 (CouchDB's `[]` revs give `0`), not a binary.
            writer.integer(0)
            writer.integer(0)
        }
        switch body {
        case .tree(let object): try writer.object(object)
        case .term(let encoded): writer.raw(encoded)
        }
        if attachments.isEmpty {
            writer.emptyList()
        } else {
            try writer.listHeader(count: attachments.count)
            for attachment in attachments.reversed() {
                writer.tupleHeader(arity: 3)
                try writer.binary(attachment.name.utf8)
                try writer.binary(attachment.contentType.utf8)
                try writer.binary(attachment.md5)
            }
            writer.emptyList()
        }
        writer.emptyList()
        return writer.bytes
    }
}
