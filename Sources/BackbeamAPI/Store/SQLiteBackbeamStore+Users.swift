import Core
import Storage

extension SQLiteBackbeamStore {
    public func userLogin(space: SpaceID, email: String) throws -> UserLogin? {
        try storage.readStatement { db -> UserLogin? in
            guard let row = try db.queryOne("""
                SELECT o.id, u.password_hash, u.email_verified FROM bb_users u JOIN bb_objects o ON o.seq = u.object
                WHERE u.space = ? AND u.email_folded = ?
                """, [.integer(space.value), .text(EmailAddress.folded(email))]), let id = row[0].string else { return nil }
            return UserLogin(id: id, passwordHash: row[1].string, verified: row[2].bool ?? false)
        }
    }

    public func openSession(space: SpaceID, userID: String, sessionHash: String, now: Int64) throws -> Bool {
        try storage.writeAndWait { ctx -> Bool in
            guard let seq = try UserGrants.userSeq(ctx.db, space: space, id: userID) else { return false }
            try UserGrants.apply(UserGrant(sessionHash: sessionHash), db: ctx.db, space: space, object: seq, now: now)
            return true
        }
    }

    public func issueCode(space: SpaceID, email: String, code: IssuedCode, mail: MailMessage, now: Int64) throws -> MailMessage? {
        try storage.writeAndWait { ctx -> MailMessage? in
            guard let seq = try ctx.db.queryOne("SELECT object FROM bb_users WHERE space = ? AND email_folded = ?",
                                                [.integer(space.value), .text(EmailAddress.folded(email))])?[0].int64 else {
                return nil
            }
            return try UserGrants.apply(UserGrant(code: code, mail: mail), db: ctx.db, space: space, object: seq, now: now)
        }
    }

    public func redeemCode(space: SpaceID, _ redemption: CodeRedemption) throws -> String? {
        try storage.writeAndWait { ctx -> String? in
            let db = ctx.db
            let kinds = "[" + redemption.kinds.map { "\"\($0.rawValue)\"" }.joined(separator: ",") + "]"
            // One statement both checks and consumes: the single writer runs it once, so of two concurrent
            // uses of one code exactly one finds it unused (§5.4.5).
            guard let seq = try db.queryOne("""
                UPDATE bb_codes SET used_at = ?
                WHERE code_hash = ? AND space = ? AND used_at IS NULL AND expires_at > ?
                  AND kind IN (SELECT value FROM json_each(?))
                RETURNING object
                """, [.integer(redemption.now), .text(redemption.codeHash), .integer(space.value), .integer(redemption.now),
                      .text(kinds)])?[0].int64,
                  let id = try db.queryOne("SELECT id FROM bb_objects WHERE seq = ?", [.integer(seq)])?[0].string else {
                return nil
            }
            // Either kind proves access to the mailbox.
            try db.run("INSERT OR IGNORE INTO bb_users (object, space) VALUES (?, ?)", [.integer(seq), .integer(space.value)])
            try db.run("UPDATE bb_users SET email_verified = 1 WHERE object = ?", [.integer(seq)])
            if let hash = redemption.passwordHash {
                try db.run("UPDATE bb_users SET password_hash = ? WHERE object = ?", [.text(hash), .integer(seq)])
                // A reset through the mailbox ends every session the old password opened (§5.4.5).
                try db.run("DELETE FROM bb_sessions WHERE object = ?", [.integer(seq)])
                try db.run("DELETE FROM bb_codes WHERE object = ? AND kind = 'reset' AND used_at IS NULL", [.integer(seq)])
            }
            try UserGrants.apply(UserGrant(sessionHash: redemption.sessionHash), db: db, space: space, object: seq,
                                 now: redemption.now)
            return id
        }
    }

    public func setMailState(id: Int64, state: String) throws {
        try storage.writeAndWait { ctx in
            try ctx.db.run("UPDATE bb_mail_outbox SET state = ? WHERE id = ?", [.text(state), .integer(id)])
        }
    }

    public func mailOutbox(space: SpaceID, recipient: String?, limit: Int) throws -> [MailMessage] {
        try storage.read { db -> [MailMessage] in
            var sql = "SELECT id, recipient, kind, subject, body, created_at, state, attempts FROM bb_mail_outbox WHERE space = ?"
            var args: [SQLValue] = [.integer(space.value)]
            if let recipient {
                sql += " AND lower(recipient) = ?"
                args.append(.text(EmailAddress.folded(recipient)))
            }
            sql += " ORDER BY id DESC LIMIT ?"
            args.append(.integer(Int64(limit)))
            return try db.query(sql, args).map { row in
                var mail = MailMessage(recipient: row[1].string ?? "", kind: row[2].string ?? "", subject: row[3].string ?? "",
                                       body: row[4].string ?? "")
                mail.id = row[0].int64 ?? 0
                mail.createdAt = row[5].int64 ?? 0
                mail.state = row[6].string ?? ""
                mail.attempts = Int(row[7].int64 ?? 0)
                return mail
            }
        }
    }
}

/// Sessions, codes and mails issued for a user inside the caller's transaction (§3.7, §5.4, §8).
enum UserGrants {
    /// Writes `grant` for the user `object`; returns the stored mail, if any.
    @discardableResult
    static func apply(_ grant: UserGrant, db: Database, space: SpaceID, object: Int64, now: Int64) throws -> MailMessage? {
        if let hash = grant.sessionHash {
            try db.run("INSERT INTO bb_sessions (token_hash, space, object, created_at) VALUES (?, ?, ?, ?)",
                       [.text(hash), .integer(space.value), .integer(object), .integer(now)])
        }
        if let code = grant.code {
            // A new code of a kind invalidates the earlier unused ones of that kind (§5.4.3).
            try db.run("DELETE FROM bb_codes WHERE object = ? AND kind = ? AND used_at IS NULL",
                       [.integer(object), .text(code.kind.rawValue)])
            try db.run("""
                INSERT INTO bb_codes (code_hash, space, object, kind, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)
                """, [.text(code.hash), .integer(space.value), .integer(object), .text(code.kind.rawValue), .integer(now),
                      .integer(code.expiresAt)])
        }
        guard var mail = grant.mail else { return nil }
        try db.run("""
            INSERT INTO bb_mail_outbox (space, recipient, sender, kind, subject, body, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)
            """, [.integer(space.value), .text(mail.recipient), mail.sender.map(SQLValue.text) ?? .null, .text(mail.kind),
                  .text(mail.subject), .text(mail.body), .integer(now)])
        mail.id = db.lastInsertRowID
        mail.createdAt = now
        return mail
    }

    /// The internal key of the `user` object `id`.
    static func userSeq(_ db: Database, space: SpaceID, id: String) throws -> Int64? {
        try db.queryOne("SELECT seq FROM bb_objects WHERE space = ? AND id = ? AND entity = 'user'",
                        [.integer(space.value), .text(id)])?[0].int64
    }
}

extension SQLiteBackbeamStore {
    public func queuedMails(limit: Int, now: Int64) throws -> [MailMessage] {
        try storage.read { db -> [MailMessage] in
            try db.query("""
                SELECT id, recipient, sender, kind, subject, body, created_at, attempts FROM bb_mail_outbox
                WHERE state = 'queued' AND next_attempt_at <= ? ORDER BY id LIMIT ?
                """, [.integer(now), .integer(Int64(limit))]).map { row in
                var mail = MailMessage(recipient: row[1].string ?? "", sender: row[2].string, kind: row[3].string ?? "",
                                       subject: row[4].string ?? "", body: row[5].string ?? "")
                mail.id = row[0].int64 ?? 0
                mail.createdAt = row[6].int64 ?? 0
                mail.attempts = Int(row[7].int64 ?? 0)
                return mail
            }
        }
    }

    public func mailAttemptFailed(id: Int64, retryAt: Int64?) throws {
        try storage.writeAndWait { ctx in
            if let retryAt {
                try ctx.db.run("UPDATE bb_mail_outbox SET attempts = attempts + 1, next_attempt_at = ? WHERE id = ?",
                               [.integer(retryAt), .integer(id)])
            } else {
                try ctx.db.run("UPDATE bb_mail_outbox SET attempts = attempts + 1, state = 'failed' WHERE id = ?", [.integer(id)])
            }
        }
    }
}
