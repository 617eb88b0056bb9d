import Storage

/// The server admin accounts in the shared table `quartet_admin_users` (migration 0001).
public struct SQLiteAdminAccountStore: AdminAccountStore {
    private let storage: Storage

    /// A store over `storage`, whose migrations must have been applied.
    public init(storage: Storage) {
        self.storage = storage
    }

    public func passwordHash(name: String) throws -> String? {
        // One statement: no read transaction needed around it.
        try storage.readStatement { db in
            try db.queryOne("SELECT password_hash FROM quartet_admin_users WHERE name = ?", [.text(name)])?["password_hash"].string
        }
    }

    public func setPasswordHash(name: String, hash: String, createdAt: Int64) throws {
        try storage.writeAndWait { ctx in
            try ctx.db.run("""
                INSERT INTO quartet_admin_users(name, password_hash, created_at) VALUES(?, ?, ?)
                ON CONFLICT(name) DO UPDATE SET password_hash = excluded.password_hash
                """, [.text(name), .text(hash), .integer(createdAt)])
        }
    }
}
