import Core

/// The options of a document read (spec §3.3.1, §3.3.2).
struct ReadOptions {
    /// What `open_revs` asks for.
    enum OpenRevs {
        case all
        case list([RevID])
    }

    var rev: RevID?
    var revs = false
    var revsInfo = false
    var conflicts = false
    var deletedConflicts = false
    var localSeq = false
    var latest = false
    var deleted = false
    /// `attachments=true` or `atts_since`: attachment data in the answer.
    var attachmentData = false
    /// `atts_since=[rev,…]` (§5.6): attachments not newer than the newest of these on the path go as stubs.
    var attsSince: [RevID]?
    /// `att_encoding_info=true`: stubs of gzip-stored attachments carry `encoding` and `encoded_length`.
    var attEncodingInfo = false
    var openRevs: OpenRevs?

    /// Reads the options; any value other than `true` means false (CouchDB's rule for these options).
    init(_ query: QueryParameters) throws(CouchError) {
        if let text = query.value("rev") { rev = try RevID(parsing: text) }
        revs = query.flag("revs")
        let meta = query.flag("meta")
        revsInfo = meta || query.flag("revs_info")
        conflicts = meta || query.flag("conflicts")
        deletedConflicts = meta || query.flag("deleted_conflicts")
        localSeq = query.flag("local_seq")
        latest = query.flag("latest")
        deleted = query.flag("deleted")
        attachmentData = query.flag("attachments") || query.value("atts_since") != nil
        attEncodingInfo = query.flag("att_encoding_info")
        if let text = query.value("atts_since") { attsSince = try RevID.list(json: try CouchJSON.parse(text)) }
        if let text = query.value("open_revs") {
            openRevs = text == "all" ? .all : .list(try RevID.list(json: try CouchJSON.parse(text)))
        }
    }

    /// True when the read is the plain one (winner, no metadata): served straight from the stored copy.
    var isPlain: Bool {
        rev == nil && !revs && !revsInfo && !conflicts && !deletedConflicts && !localSeq && openRevs == nil
    }

    /// Whether the answer carries `ETag: "{rev}"`: not when any per-request metadata was asked for.
    var sendsETag: Bool { !(revsInfo || conflicts || deletedConflicts || localSeq) }

    /// The metadata members for `node` of `tree`, in the order documents carry them.
    func metadata(for node: RevNode, in tree: RevTree) -> [(String, JSON)] {
        var members: [(String, JSON)] = []
        if revs, let path = tree.revisions(of: node.rev) { members.append(("_revisions", path.json)) }
        if revsInfo { members.append(("_revs_info", .array(tree.revsInfo(of: node.rev).map(\.json)))) }
        if localSeq { members.append(("_local_seq", .number(JSONNumber(node.seq)))) }
        if conflicts, case let list = tree.conflicts, !list.isEmpty { members.append(("_conflicts", .array(list.map(\.json)))) }
        if deletedConflicts, case let list = tree.deletedConflicts, !list.isEmpty {
            members.append(("_deleted_conflicts", .array(list.map(\.json))))
        }
        return members
    }
}
