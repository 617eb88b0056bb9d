/// An authenticated datastore user.
public struct DatastoreUser: Sendable, Hashable {
    /// Positive, never reused.
    public let uid: Int64
    /// Unique name (`^[A-Za-z0-9._@-]{1,64}$`).
    public let name: String
    /// Creates a user value.
    public init(uid: Int64, name: String) { self.uid = uid; self.name = name }
}

/// One live datastore as stored.
public struct DatastoreRecord: Sendable, Equatable {
    /// Server-assigned handle of this incarnation.
    public let handle: String
    /// App-chosen ID.
    public let dsid: String
    /// Owner's uid and name (the name matters for team grants).
    public let ownerUid: Int64
    /// Owner's user name.
    public let ownerName: String
    /// True for `.`-prefixed, globally named datastores.
    public let shareable: Bool
    /// Current revision (number of deltas).
    public let rev: Int64
    /// Accounted datastore size.
    public let size: Int
    /// Number of records in all tables.
    public let recordCount: Int
    /// Serialised fields of the `(:info, info)` record, when it exists.
    public let infoJSON: String?
}

/// A datastore together with the caller's effective role on it (always ≥ viewer when returned).
public struct DatastoreAccess: Sendable, Equatable {
    /// The datastore.
    public let datastore: DatastoreRecord
    /// Effective role of the caller (3000 owner, 2000 editor, 1000 viewer).
    public let role: Int
    /// The role as it appears on the wire: only for shareable datastores.
    public var wireRole: Int? { datastore.shareable ? role : nil }
}

/// One stored delta, its changes as stored (already validated JSON text).
public struct StoredDelta: Sendable, Equatable {
    /// Revision this delta turned into `rev + 1`.
    public let rev: Int64
    /// The changes array text.
    public let changesJSON: String
    /// The writer's nonce or "".
    public let nonce: String
}

/// One record of a snapshot.
public struct SnapshotRow: Sendable, Equatable {
    /// Table ID.
    public let tid: String
    /// Record ID.
    public let rid: String
    /// Fields object text.
    public let fieldsJSON: String
}

/// What reading deltas from a revision found.
public enum DeltaRead: Sendable, Equatable {
    /// Unknown, dead or inaccessible handle.
    case notFound
    /// The asked revision is beyond the current one.
    case ahead(current: Int64)
    /// Deltas from the asked revision (empty when it is current), capped.
    case deltas([StoredDelta], access: DatastoreAccess)
}

/// Caps of one `get_deltas`-style answer (§6.7).
public struct DeltaBatchCap: Sendable, Equatable {
    /// Most deltas per answer.
    public var maxDeltas: Int
    /// Most bytes of serialised changes per answer (at least one delta is always sent).
    public var maxBytes: Int
    /// Creates a cap.
    public init(maxDeltas: Int, maxBytes: Int) { self.maxDeltas = maxDeltas; self.maxBytes = maxBytes }
}

/// Outcome of `put_delta` after the syntax checks.
public enum PutOutcome: Sendable, Equatable {
    /// Stored; the new current revision.
    case committed(rev: Int64)
    /// Idempotent retry of the delta at `rev - 1`: nothing stored.
    case retried(rev: Int64)
    /// Stale or future base revision.
    case conflict(rev: Int64, current: Int64)
    /// Unknown, dead or inaccessible handle.
    case notFound
    /// The caller is only a viewer.
    case accessDenied
}

/// Outcome of `get_or_create_datastore` / `create_datastore`.
public struct CreateOutcome: Sendable, Equatable {
    /// Handle of the live datastore.
    public let handle: String
    /// Its current revision.
    public let rev: Int64
    /// Whether this call created it.
    public let created: Bool
}

/// Outcome of `delete_datastore`.
public enum DeleteOutcome: Sendable, Equatable {
    /// Deleted.
    case deleted
    /// Unknown, dead or inaccessible handle.
    case notFound
    /// The caller is not the owner.
    case accessDenied
}

/// A `list_datastores` item before rendering.
public struct ListItem: Sendable, Equatable {
    /// The datastore.
    public let dsid: String
    /// Its handle.
    public let handle: String
    /// Its revision.
    public let rev: Int64
    /// `(:info, info)` fields text, if the record exists.
    public let infoJSON: String?
    /// Role, for shareable datastores only.
    public let role: Int?
}
