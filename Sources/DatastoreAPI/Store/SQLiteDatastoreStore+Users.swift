import Storage

/// Users and hashed tokens (§4.2–§4.4).
extension SQLiteDatastoreStore {
    /// The live token's user by token hash (revoked tokens name nobody).
    public func user(forTokenHash hash: String) throws -> DatastoreUser? {
        // One statement, so no surrounding transaction (`readStatement`), and the two columns read straight
        // off it: every request of the API starts here.
        try storage.readStatement { db in
            var user: DatastoreUser?
            try db.forEachRow("""
                SELECT u.uid, u.name FROM ds_token t JOIN ds_user u ON u.uid = t.uid
                WHERE t.token_hash = ? AND t.revoked_at IS NULL
                """, [.text(hash)]) { row in
                if let uid = row.int64(0), let name = row.string(1) { user = DatastoreUser(uid: uid, name: name) }
                return false
            }
            return user
        }
    }

    /// Creates the user if needed and stores the token hash, durably.
    public func issueToken(userName: String, tokenHash: String, source: String) throws -> DatastoreUser {
        guard Identifiers.isValidUserName(userName) else { throw DatastoreStoreError.invalidUserName }
        return try storage.writeAndWait { ctx in
            let user = try Self.userCreatingIfNeeded(userName, db: ctx.db)
            try ctx.db.run("""
                INSERT OR REPLACE INTO ds_token(token_hash, uid, source, created_at, revoked_at) VALUES (?, ?, ?, ?, NULL)
                """, [.text(tokenHash), .integer(user.uid), .text(source), .integer(Self.now)])
            return user
        }
    }

    /// Marks a live token revoked; false when unknown or already revoked.
    public func revokeToken(hash: String) throws -> Bool {
        try storage.writeAndWait { ctx in
            try ctx.db.run("UPDATE ds_token SET revoked_at = ? WHERE token_hash = ? AND revoked_at IS NULL",
                           [.integer(Self.now), .text(hash)]) > 0
        }
    }

    /// Replaces the configured static tokens, creating their users in order.
    public func replaceStaticTokens(_ tokens: [(hash: String, userName: String)]) throws {
        for token in tokens where !Identifiers.isValidUserName(token.userName) {
            throw DatastoreStoreError.invalidUserName
        }
        let list = tokens.map { ($0.hash, $0.userName) }
        try storage.writeAndWait { ctx in
            // Static tokens follow the configuration: those removed from it stop working at the next start.
            try ctx.db.run("DELETE FROM ds_token WHERE source = 'static'")
            for (hash, name) in list {
                let user = try Self.userCreatingIfNeeded(name, db: ctx.db)
                try ctx.db.run("""
                    INSERT OR REPLACE INTO ds_token(token_hash, uid, source, created_at, revoked_at)
                    VALUES (?, ?, 'static', ?, NULL)
                    """, [.text(hash), .integer(user.uid), .integer(Self.now)])
            }
        }
    }

    /// The user of that name, created with the next uid when new (AUTOINCREMENT never reuses uids).
    static func userCreatingIfNeeded(_ name: String, db: Database) throws -> DatastoreUser {
        if let row = try db.queryOne("SELECT uid FROM ds_user WHERE name = ?", [.text(name)]), let uid = row["uid"].int64 {
            return DatastoreUser(uid: uid, name: name)
        }
        try db.run("INSERT INTO ds_user(name, created_at) VALUES (?, ?)", [.text(name), .integer(now)])
        return DatastoreUser(uid: db.lastInsertRowID, name: name)
    }

    /// Whether a uid names an existing user (an `:acl` grant to a future uid would be inherited).
    static func userExists(_ uid: Int64, db: Database) throws -> Bool {
        try db.queryOne("SELECT 1 FROM ds_user WHERE uid = ?", [.integer(uid)]) != nil
    }
}
