import Foundation
import Core

/// The one server admin: its account (created from configuration, or with a generated password at first
/// start; stored only as a bcrypt hash) and the check of its credentials that every API calls — the admin
/// API and Datastore's admin routes (HTTP Basic), and Couch's `/_session`, Basic and cookie logins.
///
/// Wrong passwords are limited per client address (`FailedLoginLimiter`). bcrypt costs tens of
/// milliseconds by design, so a success is remembered for a minute (`VerifiedCredentialCache`); the limit
/// is checked before that memory, so an address that used up its failures cannot keep guessing through it.
public final class ServerAdmin: Sendable {
    /// How long a verified password is remembered.
    static let verifiedLifetimeSeconds = 60.0

    /// The admin's name.
    public let name: String
    private let store: any AdminAccountStore
    private let limiter: FailedLoginLimiter
    private let verified = VerifiedCredentialCache(lifetime: ServerAdmin.verifiedLifetimeSeconds)
    private let checks = SharedPasswordChecks()
    private let hashCost: Int
    private let clock: @Sendable () -> Double

    /// The admin `name` kept in `store`, with `policy` for failed logins. `hashCost` is bcrypt's cost for
    /// new hashes; `clock` gives monotonic seconds (injected by tests).
    public init(name: String, store: any AdminAccountStore, policy: FailedLoginPolicy = FailedLoginPolicy(),
                hashCost: Int = 10, clock: @escaping @Sendable () -> Double = ServerAdmin.monotonicSeconds) {
        self.name = name
        self.store = store
        self.limiter = FailedLoginLimiter(policy: policy)
        self.hashCost = hashCost
        self.clock = clock
    }

    /// The admin from the `admin` configuration section.
    public convenience init(settings: AdminSettings, store: any AdminAccountStore) {
        self.init(name: settings.name, store: store, policy: settings.failedLogins)
    }

    /// Seconds since boot, unaffected by changes of the wall clock.
    public static func monotonicSeconds() -> Double {
        Double(DispatchTime.now().uptimeNanoseconds) / 1_000_000_000
    }

    /// Makes sure the account exists. A configured password replaces the stored hash (only when it differs,
    /// so restarts stay fast). Without one, a first start generates a password and returns it for the caller
    /// to print once; otherwise nil.
    public func ensureAccount(configuredPassword: String?) throws -> String? {
        let existing = try store.passwordHash(name: name)
        if let configuredPassword {
            if let existing, PasswordHasher.verify(configuredPassword, hash: existing) { return nil }
            try setPassword(configuredPassword)
            return nil
        }
        if existing != nil { return nil }
        let generated = TokenGenerator.token(bytes: 18)
        try setPassword(generated)
        return generated
    }

    /// Checks `name` and `password` sent from `clientAddress`. A wrong name or password counts as a failed
    /// login of that address.
    public func verify(name: String, password: String, clientAddress: String) -> AdminVerdict {
        let now = clock()
        // The limit comes first: a refused address learns nothing, not even from remembered successes.
        if let wait = limiter.refusal(for: clientAddress, now: now) { return .rateLimited(retryAfterSeconds: wait) }
        let digest = VerifiedCredentialCache.digest(name: name, password: password)
        if verified.contains(digest, now: now) { return .ok }
        // A client's connections sending the same credentials at once (its whole pool, each time the memory
        // above expires) make one check and one attempt; see `SharedPasswordChecks`.
        return checks.verdict(for: .init(clientAddress: clientAddress, digest: digest)) {
            // A check of these credentials may have ended since the look above.
            if verified.contains(digest, now: clock()) { return .ok }
            if case .refused(let wait) = limiter.begin(clientAddress, now: clock()) {
                return .rateLimited(retryAfterSeconds: wait)
            }
            let check = checkStored(name: name, password: password)
            limiter.finish(clientAddress, failed: check == .wrong, now: clock())
            guard check == .correct else { return .wrong }
            verified.insert(digest, now: clock())
            return .ok
        }
    }

    /// Seconds until `clientAddress` may try a password again, when it used up its failed logins; nil when it
    /// may try now. For callers that remember verified credentials themselves: they must still refuse an
    /// address this refuses, as `verify` does, so that a limited address learns nothing.
    public func loginRefusal(for clientAddress: String) -> Int? {
        limiter.refusal(for: clientAddress, now: clock())
    }

    /// Runs another account's password check (Couch's `_users` accounts) under the same failed-login limit:
    /// an address that used up its failures is refused without checking, and a false `check` counts as a
    /// failed login of `clientAddress`, so guessing a user's password is no faster than guessing the admin's.
    public func limitedCheck(clientAddress: String, _ check: () -> Bool) -> AdminVerdict {
        if case .refused(let wait) = limiter.begin(clientAddress, now: clock()) { return .rateLimited(retryAfterSeconds: wait) }
        let correct = check()
        limiter.finish(clientAddress, failed: !correct, now: clock())
        return correct ? .ok : .wrong
    }

    /// `limitedCheck` for credentials the caller names by `key` (a digest of the account's name and the
    /// password sent, never the password): calls from the same address with the same key while a check is
    /// under way take its verdict instead of reserving attempts of their own, as `verify` does for the admin.
    public func limitedCheck(clientAddress: String, credentials key: [UInt8], _ check: () -> Bool) -> AdminVerdict {
        checks.verdict(for: .init(clientAddress: clientAddress, digest: key)) {
            limitedCheck(clientAddress: clientAddress, check)
        }
    }

    /// Checks an `Authorization` header sent from `clientAddress`. No header, or one that is not valid
    /// `Basic`, is `.wrong` without counting as a failed login (nothing was guessed).
    public func verify(authorization: String?, clientAddress: String) -> AdminVerdict {
        guard let authorization, let credentials = BasicCredentials(authorization: authorization) else { return .wrong }
        return verify(name: credentials.name, password: credentials.password, clientAddress: clientAddress)
    }

    /// The salt of the admin's stored password hash, which changes whenever the password changes: the key
    /// material for stateless session tokens (Couch's `AuthSession` cookie), so that a new password ends
    /// the old sessions. Nil before the account exists.
    public func sessionSalt() throws -> String? {
        guard let hash = try store.passwordHash(name: name) else { return nil }
        return BcryptHash.salt(of: hash)
    }

    /// Stores a bcrypt hash of `password` and forgets remembered successes.
    private func setPassword(_ password: String) throws {
        let hash = try PasswordHasher.hash(password, cost: hashCost)
        try store.setPasswordHash(name: name, hash: hash, createdAt: WallClock.nowMillis())
        verified.removeAll()
    }

    private enum StoredCheck { case correct, wrong, unavailable }

    /// The bcrypt check against the stored hash. A storage failure refuses the login without counting it
    /// against the client, whose guess was never checked.
    private func checkStored(name: String, password: String) -> StoredCheck {
        guard name == self.name else { return .wrong }
        let stored: String?
        do { stored = try store.passwordHash(name: name) } catch { return .unavailable }
        guard let stored, PasswordHasher.verify(password, hash: stored) else { return .wrong }
        return .correct
    }
}
