import Core
import Storage

/// Why stored Couch data could not be used. Answered as a 500 (the detail goes to the log only).
public enum CouchStoreError: Error, Sendable, CustomStringConvertible {
    /// A row holds something its writer never writes (a damaged tree, a malformed revision id).
    case corrupt(String)

    public var description: String {
        switch self {
        case .corrupt(let detail): return "corrupt Couch data: \(detail)"
        }
    }
}

/// `CouchStore` on the shared SQLite database (tables of `Migrations/0004_couch.sql`) and blob store.
public final class SQLiteCouchStore: CouchStore {
    let storage: Storage
    let blobs: BlobStore
    public let metadata: ServerMetadata
    public let accessEpoch = AccessEpoch()

    /// Opens the store; creates the server uuid and cookie secret on first start (one durable write).
    public init(storage: Storage, blobs: BlobStore) throws {
        self.storage = storage
        self.blobs = blobs
        metadata = try Self.loadMetadata(storage)
    }

    /// Reads the server metadata, generating what is missing in the same job (so two starts can never
    /// disagree: `INSERT OR IGNORE` keeps the first value).
    private static func loadMetadata(_ storage: Storage) throws -> ServerMetadata {
        try storage.writeAndWait { ctx -> ServerMetadata in
            try ctx.db.run("INSERT OR IGNORE INTO couch_server (key, value) VALUES ('uuid', ?)",
                           [.blob(Array(Hex.encode(Crypto.randomBytes(16)).utf8))])
            try ctx.db.run("INSERT OR IGNORE INTO couch_server (key, value) VALUES ('cookie_secret', ?)",
                           [.blob(Crypto.randomBytes(32))])
            var uuid: String?
            var secret: [UInt8]?
            try ctx.db.forEachRow("SELECT key, value FROM couch_server WHERE key IN ('uuid', 'cookie_secret')") { row in
                switch row.string(0) {
                case "uuid": uuid = row.bytes(1).map { String(decoding: $0, as: UTF8.self) }
                case "cookie_secret": secret = row.bytes(1)
                default: break
                }
                return true
            }
            guard let uuid, uuid.utf8.count == 32, let secret, secret.count == 32 else {
                throw CouchStoreError.corrupt("server metadata")
            }
            return ServerMetadata(uuid: uuid, cookieSecret: secret)
        }
    }

    public func winner<T>(database: String, docID: String, _ body: (StoredWinner) throws -> T) throws -> Lookup<T> {
        try storage.readStatement { db -> Lookup<T> in
            var result: T?
            // One statement: the database's id through its unique name index, then the document's row.
            try db.forEachRow("""
                SELECT rev, deleted, body, atts FROM couch_docs
                WHERE db_id = (SELECT db_id FROM couch_databases WHERE name = ?) AND doc_id = ?
                """, [.text(database), .text(docID)]) { row in
                guard let rev = row.text(0), let text = row.text(2) else { throw CouchStoreError.corrupt("document row") }
                result = try body(StoredWinner(rev: rev, deleted: row.int64(1) != 0, body: text,
                                               attachments: row.text(3)))
                return false
            }
            if let result { return .found(result) }
            // Rare: which 404 it is. A second statement may see a newer snapshot; either answer was true
            // at some moment during the request.
            let exists = try db.queryOne("SELECT 1 FROM couch_databases WHERE name = ?", [.text(database)]) != nil
            return exists ? .missing : .noDatabase
        }
    }

    public func liveWinnerIfAtHand<T>(database: String, docID: String, maxSize: Int,
                                      _ body: (StoredWinner) throws -> T) throws -> T? {
        // The body's value is kept in a slot of `T` with a flag beside it, not in locals of type `T?`: this
        // generic method is reached through the protocol, unspecialized, and each `T?` (and `T??`) local made
        // the runtime look up `Optional<T>`'s metadata, three lookups of about 430 instructions per read.
        let slot = UnsafeMutablePointer<T>.allocate(capacity: 1)
        var filled = false
        defer {
            // Still filled only when something threw after `body` returned.
            if filled { slot.deinitialize(count: 1) }
            slot.deallocate()
        }
        _ = try storage.tryReadStatement { db -> Bool in
            // The body column is read only for a small live winner: `size` (body and attachment bytes) is
            // compared first, so a large document costs no copy here.
            try db.forEachRow("""
                SELECT rev, CASE WHEN deleted = 0 AND size <= ? THEN body END, atts FROM couch_docs
                WHERE db_id = (SELECT db_id FROM couch_databases WHERE name = ?) AND doc_id = ?
                """, [.integer(Int64(maxSize)), .text(database), .text(docID)]) { row in
                guard let rev = row.text(0), let text = row.text(1) else { return false }
                slot.initialize(to: try body(StoredWinner(rev: rev, deleted: false, body: text, attachments: row.text(2))))
                filled = true
                return false
            }
            return filled
        }
        guard filled else { return nil }
        filled = false
        return slot.move()
    }

    public func databaseExists(_ name: String) throws -> Bool {
        try storage.readStatement { db in
            try db.queryOne("SELECT 1 FROM couch_databases WHERE name = ?", [.text(name)]) != nil
        }
    }

    public func read<T>(_ body: (any CouchReader) throws -> T) throws -> T {
        try storage.read { db in try body(SQLiteCouchReader(db: db)) }
    }
}
