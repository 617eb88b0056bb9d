import Foundation
import Core
import Auth
import Storage

/// The one server admin account: from configuration, or generated at first start, printed once and stored
/// hashed (bcrypt) in `quartet_admin_users`.
public enum AdminAccount {
    /// Makes sure the configured admin exists. Returns the generated password when one was created (the
    /// caller prints it once), nil otherwise.
    public static func ensure(storage: Storage, user: String, configuredPassword: String?) throws -> String? {
        let existing = try storage.read { db in
            try db.queryOne("SELECT password_hash FROM quartet_admin_users WHERE name = ?", [.text(user)])
        }
        if let configuredPassword {
            // Re-hash only when the configured password changed, so restarts stay fast.
            if let hash = existing?["password_hash"].string, PasswordHasher.verify(configuredPassword, hash: hash) {
                return nil
            }
            let hash = try PasswordHasher.hash(configuredPassword)
            try store(storage: storage, user: user, hash: hash)
            return nil
        }
        if existing != nil { return nil }
        let generated = TokenGenerator.token(bytes: 18)
        try store(storage: storage, user: user, hash: try PasswordHasher.hash(generated))
        return generated
    }

    static func store(storage: Storage, user: String, hash: String) throws {
        let now = Int64(Date().timeIntervalSince1970 * 1000)  // epoch milliseconds, as every quartet_ table
        try storage.writeAndWait { ctx in
            try ctx.db.run("""
                INSERT INTO quartet_admin_users(name, password_hash, created_at) VALUES(?, ?, ?)
                ON CONFLICT(name) DO UPDATE SET password_hash = excluded.password_hash
                """, [.text(user), .text(hash), .integer(now)])
        }
    }
}
