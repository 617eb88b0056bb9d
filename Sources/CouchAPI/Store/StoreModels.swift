import Core

/// A database as the store keeps it (spec §7): identity, counters and settings.
public struct DatabaseRecord: Sendable, Hashable {
    /// Internal id; never reused, so a re-created database is a new incarnation.
    public let id: Int64
    /// The name as clients write it (decoded).
    public let name: String
    /// Creation time in microseconds since the Unix epoch: `instance_start_time` (§4.8).
    public let createdMicros: Int64
    /// Last sequence number assigned.
    public let updateSeq: Int64
    /// `purge_seq` (P2; 0 until purges exist).
    public let purgeSeq: Int64
    /// `_revs_limit`.
    public let revsLimit: Int
    /// Documents whose winner is live.
    public let docCount: Int64
    /// Documents whose winner is a tombstone.
    public let docDelCount: Int64
    /// Bytes of the winners' bodies and attachments (`sizes.external`).
    public let externalSize: Int64
    /// Bytes of every stored body, tree and attachment (`sizes.active`).
    public let activeSize: Int64

    /// `instance_start_time` as the decimal string CouchDB clients compare.
    public var instanceStartTime: String { String(createdMicros) }
}

/// The winning revision of a document as stored bytes, for the plain `GET` (valid only during the call
/// that hands it out: the buffers are SQLite's own).
public struct StoredWinner {
    /// The winner's revision id text (`3-abc…`).
    public let rev: UnsafeBufferPointer<UInt8>
    /// Whether the winner is a tombstone.
    public let deleted: Bool
    /// The winner's body, compact JSON of an object.
    public let body: UnsafeBufferPointer<UInt8>
    /// The winner's `_attachments` stubs object, when it has attachments.
    public let attachments: UnsafeBufferPointer<UInt8>?
}

/// What a lookup inside a database found.
public enum Lookup<T> {
    /// The thing looked for.
    case found(T)
    /// The database exists, the thing does not.
    case missing
    /// No database of that name.
    case noDatabase
}

extension Lookup: Sendable where T: Sendable {}

/// A document with its revision forest and a copy of its winner, read in one snapshot.
public struct StoredDocument: Sendable {
    /// Row id: the key of its revisions.
    public let rowID: Int64
    /// The document id.
    public let id: String
    /// Sequence of the write that last changed the tree.
    public let seq: Int64
    /// The revision forest.
    public let tree: RevTree
    /// The winner's body (compact JSON object text).
    public let winnerBody: [UInt8]
    /// The winner's `_attachments` stubs (JSON object text), nil when it has none.
    public let winnerAttachments: [UInt8]?
}

/// One stored revision body.
public struct StoredRevision: Sendable {
    /// The revision.
    public let rev: RevID
    /// Whether it is a tombstone.
    public let deleted: Bool
    /// The body (compact JSON object text, special members stripped).
    public let body: [UInt8]
    /// Its attachments in order (empty when none).
    public let attachments: [StoredAttachment]
}

/// One attachment of a stored revision (spec §4.7).
public struct StoredAttachment: Sendable, Hashable {
    /// The name (any non-empty UTF-8 without NUL and not starting with `_`).
    public var name: String
    /// `content_type`.
    public var contentType: String
    /// Identity length in bytes.
    public var length: Int64
    /// `md5-{base64}` of the stored bytes.
    public var digest: String
    /// Generation of the revision that brought the data.
    public var revpos: Int
    /// `gzip` for attachments stored compressed (received so through replication), nil for identity.
    public var encoding: String?
    /// Stored length when `encoding` is set.
    public var encodedLength: Int64?
    /// The blob holding the stored bytes (content address in the `BlobStore`).
    public var blobHash: String

    /// An attachment record.
    public init(name: String, contentType: String, length: Int64, digest: String, revpos: Int,
                encoding: String? = nil, encodedLength: Int64? = nil, blobHash: String) {
        self.name = name
        self.contentType = contentType
        self.length = length
        self.digest = digest
        self.revpos = revpos
        self.encoding = encoding
        self.encodedLength = encodedLength
        self.blobHash = blobHash
    }

    /// The entry this attachment contributes to a revision id (§4.5); nil when its digest is not MD5.
    var hashEntry: RevisionHashAttachment? {
        RevisionHashAttachment(name: name, contentType: contentType, digest: digest)
    }
}

/// A `_local` document.
public struct LocalDocument: Sendable {
    /// N of its revision `0-N`.
    public let rev: Int64
    /// Its body (compact JSON object text).
    public let body: [UInt8]
}

/// What the server keeps about itself.
public struct ServerMetadata: Sendable {
    /// 32 lowercase hex digits, stable for the life of the data directory (`GET /` `uuid`).
    public let uuid: String
    /// 32 random bytes keying `AuthSession` HMACs.
    public let cookieSecret: [UInt8]
}

/// Options of `_all_dbs` (§3.1.3), already parsed.
public struct DatabaseListQuery: Sendable {
    /// Lower bound in iteration order (upper with `descending`).
    public var startKey: String?
    /// Upper bound in iteration order (lower with `descending`).
    public var endKey: String?
    /// Whether `endKey` itself is included.
    public var inclusiveEnd = true
    /// Reverse byte order.
    public var descending = false
    /// Most names returned; nil: all.
    public var limit: Int?
    /// Names skipped after the range is applied.
    public var skip = 0

    /// All names, ascending.
    public init() {}
}
