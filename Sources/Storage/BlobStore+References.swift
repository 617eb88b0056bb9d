import Core
import Foundation

extension BlobStore {
    /// +1 reference inside a write job; the first reference creates the `quartet_blobs` row. The blob
    /// must have been stored (the file must exist).
    public func retain(_ hash: String, in ctx: WriteContext) throws {
        guard let location = location(for: hash) else {
            throw StorageError.blob("malformed blob hash '\(hash)'")
        }
        guard let size = FileIO.fileSize(location.file) else {
            throw StorageError.blob("blob \(hash) is not in the store")
        }
        try ctx.db.run("""
            INSERT INTO quartet_blobs (hash, size, refcount, created_at, unreferenced_since)
            VALUES (?, ?, 1, ?, NULL)
            ON CONFLICT (hash) DO UPDATE SET refcount = refcount + 1, unreferenced_since = NULL
            """, [.text(hash), .integer(Int64(size)), .integer(Self.nowMillis())])
    }

    /// -1 reference inside a write job. When the count reaches zero the blob becomes eligible for
    /// garbage collection once it has stayed unreferenced long enough.
    public func release(_ hash: String, in ctx: WriteContext) throws {
        guard Self.isValidHash(hash) else {
            throw StorageError.blob("malformed blob hash '\(hash)'")
        }
        let changed = try ctx.db.run("""
            UPDATE quartet_blobs
            SET refcount = refcount - 1,
                unreferenced_since = CASE WHEN refcount = 1 THEN ? ELSE unreferenced_since END
            WHERE hash = ? AND refcount > 0
            """, [.integer(Self.nowMillis()), .text(hash)])
        guard changed == 1 else {
            throw StorageError.blob("release of blob \(hash) that holds no reference")
        }
    }

    /// The current reference count of `hash` (nil when it has no row), read from the committed state.
    public func referenceCount(_ hash: String) throws -> Int? {
        try storage.read { db in
            try db.queryOne("SELECT refcount FROM quartet_blobs WHERE hash = ?", [.text(hash)])?["refcount"].int
        }
    }

    static func nowMillis() -> Int64 {
        WallClock.nowMillis()
    }
}
