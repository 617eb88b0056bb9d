import Foundation
import Core

/// The accounts of the `_users` database (spec §3.10) for authentication: looked up by name and remembered
/// until the store's `AccessEpoch` moves (every `_users` write moves it), and successful password checks
/// remembered for `couch.authCacheTtl` seconds (§2.7.2), keyed by the name and an HMAC of the password under
/// a per-process random key, never the password itself. PBKDF2 is slow on purpose; a replicator sends the
/// same Basic header with every request.
final class UserDirectory: Sendable {
    private struct AccountEntry {
        let epoch: UInt64
        let account: UserAccount?
    }

    private struct VerifiedEntry {
        let epoch: UInt64
        let until: Double
        let account: UserAccount
    }

    /// Most accounts and most verified credentials remembered; past it a table starts over.
    static let capacity = 4096

    private let store: any CouchStore
    private let ttl: Double
    private let accounts = Locked<[String: AccountEntry]>([:])
    private let verified = Locked<[[UInt8]: VerifiedEntry]>([:])
    private let digestKey = Crypto.randomBytes(32)
    private let now: @Sendable () -> Double

    init(store: any CouchStore, ttl: Int, now: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 }) {
        self.store = store
        self.ttl = Double(ttl)
        self.now = now
    }

    /// The account `name`, nil when `_users` has no live document `org.couchdb.user:{name}` or it is not
    /// an account.
    func account(named name: String) throws -> UserAccount? {
        let epoch = store.accessEpoch.current
        if let entry = accounts.withLock({ $0[name] }), entry.epoch == epoch { return entry.account }
        let id = UserAccount.idPrefix + name
        let lookup = try store.winner(database: UsersDatabase.name, docID: id) { winner -> UserAccount? in
            guard !winner.deleted, case .object(let body)? = try? CouchJSON.parse(Array(winner.body)) else { return nil }
            guard let account = UserAccount(body: body), account.name == name else { return nil }
            return account
        }
        var account: UserAccount?
        if case .found(let found) = lookup { account = found }
        accounts.withLock { table in
            if table.count >= Self.capacity { table.removeAll(keepingCapacity: true) }
            table[name] = AccountEntry(epoch: epoch, account: account)
        }
        return account
    }

    /// The account when `password` is its password. `check` wraps the (slow) verification so the caller can
    /// put it under the failed-login limit; it is not called for remembered credentials.
    func verify(name: String, password: String,
                check: (_ verify: () -> Bool) -> Bool) throws -> UserAccount? {
        let key = Crypto.hmacSHA256(key: digestKey, data: Array(name.utf8) + [0] + Array(password.utf8))
        let epoch = store.accessEpoch.current
        let clock = now()
        if let entry = verified.withLock({ $0[key] }), entry.epoch == epoch, entry.until > clock {
            return entry.account
        }
        let account = try self.account(named: name)
        // An unknown name is a failed login too: it counts against the address like a wrong password.
        guard check({ account?.verify(password) ?? false }), let account else { return nil }
        verified.withLock { table in
            if table.count >= Self.capacity { table.removeAll(keepingCapacity: true) }
            table[key] = VerifiedEntry(epoch: epoch, until: clock + ttl, account: account)
        }
        return account
    }
}
