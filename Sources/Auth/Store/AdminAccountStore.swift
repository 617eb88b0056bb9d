/// Where the server admin's password hash is kept. `SQLiteAdminAccountStore` is the one used by the daemon;
/// handlers never see SQL.
public protocol AdminAccountStore: Sendable {
    /// The stored bcrypt hash of admin `name`, or nil when there is no such admin.
    func passwordHash(name: String) throws -> String?

    /// Stores `hash` for admin `name`, creating the account when missing. `createdAt` is in Unix epoch
    /// milliseconds and is kept only when the account is created.
    func setPasswordHash(name: String, hash: String, createdAt: Int64) throws
}
