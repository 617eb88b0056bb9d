import Foundation
import Synchronization
import Core
import Auth
import HTTP

/// Who sent a request and how they proved it (spec §2.7, §2.8).
struct Credentials: Sendable {
    /// How the request authenticated.
    enum Method: Sendable, Equatable {
        case anonymous
        /// An `AuthSession` cookie issued at this Unix time.
        case cookie(issuedAt: Int64)
        /// HTTP Basic.
        case basic
    }

    /// The user's name; nil for anonymous requests.
    let name: String?
    /// The user's roles (`_admin` for the server admin).
    let roles: [String]
    let method: Method

    static let anonymous = Credentials(name: nil, roles: [], method: .anonymous)

    /// Whether the caller is the server admin.
    var isServerAdmin: Bool { roles.contains("_admin") }
}

/// A Couch error together with extra response headers (`Retry-After` of a 429).
struct CouchFailure: Error, Sendable {
    let error: CouchError
    let headers: [(String, String)]

    init(_ error: CouchError, headers: [(String, String)] = []) {
        self.error = error
        self.headers = headers
    }
}

/// Checks cookies and Basic credentials against the server admin and the `_users` accounts (§2.7.2: cookie
/// first, then Basic; other schemes are ignored) and issues `AuthSession` tokens. The server admin's name
/// always means the server admin, whatever `_users` holds.
final class CouchAuthenticator: Sendable {
    let admin: ServerAdmin
    /// The `_users` accounts (§3.10).
    let users: UserDirectory
    private let secret: [UInt8]
    /// Cookie lifetime in seconds.
    let sessionTimeout: Int64
    /// The admin's password salt, re-read at most every `saltLifetime` seconds: the key of every cookie
    /// check, and a storage read is too much to pay per request.
    private let salt = Mutex<(value: String, until: Double)?>(nil)
    private static let saltLifetime = 5.0
    /// The last Basic header that passed the check, as a keyed 128-bit digest (never the header itself),
    /// with the password salt it was checked against, for `rememberedLifetime` seconds. Decoding the header
    /// and the server admin's own check cost about 14,000 instructions; a replicator sends the same header
    /// with every request.
    private let remembered = Mutex<(digest: HeaderDigest, salt: String, until: Double)?>(nil)
    private static let rememberedLifetime = 60.0
    private let digestKey = Crypto.randomBytes(32)
    private let now: @Sendable () -> Double

    init(admin: ServerAdmin, users: UserDirectory, secret: [UInt8], sessionTimeout: Int,
         now: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 }) {
        self.admin = admin
        self.users = users
        self.secret = secret
        self.sessionTimeout = Int64(sessionTimeout)
        self.now = now
    }

    /// The caller of a request. A valid cookie wins and the `Authorization` header is then ignored; a
    /// malformed, tampered or expired cookie is ignored. Wrong or undecodable Basic credentials are 401
    /// "Name or password is incorrect." on every endpoint; a client address over its failed-login limit
    /// gets 429 with `Retry-After`.
    func authenticate(cookie: String?, authorization: String?, clientAddress: String) throws(CouchFailure) -> Credentials {
        if let cookie, let token = SessionCookie.value(named: SessionCookie.name, in: cookie),
           let credentials = verify(token: token) {
            return credentials
        }
        guard let authorization, authorization.utf8.count >= 6,
              authorization.utf8.prefix(6).map({ $0 | 0x20 }).elementsEqual("basic ".utf8) else {
            return .anonymous
        }
        let digest = HeaderDigest(authorization, key: digestKey)
        let clock = now()
        if let entry = remembered.withLock({ $0 }), entry.digest == digest, entry.until > clock,
           let current = currentSalt(clock), current == entry.salt {
            // A limited address is refused whatever it sends, remembered credentials included.
            if let seconds = admin.loginRefusal(for: clientAddress) {
                throw CouchFailure(.tooManyLoginFailures, headers: [("Retry-After", String(seconds))])
            }
            return Credentials(name: admin.name, roles: ["_admin"], method: .basic)
        }
        guard let basic = BasicCredentials(authorization: authorization) else { throw CouchFailure(.badCredentials) }
        if basic.name != admin.name {
            return try user(name: basic.name, password: basic.password, clientAddress: clientAddress, method: .basic)
        }
        switch admin.verify(name: basic.name, password: basic.password, clientAddress: clientAddress) {
        case .ok:
            if let current = currentSalt(clock) {
                remembered.withLock { $0 = (digest, current, clock + Self.rememberedLifetime) }
            }
            return Credentials(name: admin.name, roles: ["_admin"], method: .basic)
        case .wrong:
            throw CouchFailure(.badCredentials)
        case .rateLimited(let seconds):
            throw CouchFailure(.tooManyLoginFailures, headers: [("Retry-After", String(seconds))])
        }
    }

    /// The server admin's credentials when `authenticate` would find them without storage, hashing or a
    /// failed-login count: a valid cookie under the cached password salt, or the remembered Basic header.
    /// Nil for everything else (anonymous callers included), which then takes `authenticate`'s full path.
    /// For an I/O thread, which must not wait (see `CouchHandler.attempt`).
    func cachedAdmin(cookie: String?, authorization: String?, clientAddress: String) -> Credentials? {
        let clock = now()
        guard let current = salt.withLock({ $0 }), current.until > clock else { return nil }
        if let cookie, let token = SessionCookie.value(named: SessionCookie.name, in: cookie) {
            // Any other cookie (a `_users` account's, an expired or a forged one) is for the full path to
            // judge: a user's valid cookie wins over Basic there.
            return verify(token: token, key: secret + Array(current.value.utf8), clock: clock)
        }
        guard let authorization, authorization.utf8.count >= 6,
              authorization.utf8.prefix(6).map({ $0 | 0x20 }).elementsEqual("basic ".utf8),
              let entry = remembered.withLock({ $0 }), entry.until > clock, entry.salt == current.value,
              entry.digest == HeaderDigest(authorization, key: digestKey),
              admin.loginRefusal(for: clientAddress) == nil else { return nil }
        return Credentials(name: admin.name, roles: ["_admin"], method: .basic)
    }

    /// `POST /_session`: checks a name and password (the server admin's or a `_users` account's).
    func login(name: String, password: String, clientAddress: String) throws(CouchFailure) -> Credentials {
        guard name == admin.name else { return try user(name: name, password: password, clientAddress: clientAddress, method: .basic) }
        switch admin.verify(name: name, password: password, clientAddress: clientAddress) {
        case .ok: return Credentials(name: admin.name, roles: ["_admin"], method: .basic)
        case .wrong: throw CouchFailure(.badCredentials)
        case .rateLimited(let seconds):
            throw CouchFailure(.tooManyLoginFailures, headers: [("Retry-After", String(seconds))])
        }
    }

    /// A `_users` account's credentials, checked under the same failed-login limit as the admin's.
    private func user(name: String, password: String, clientAddress: String,
                      method: Credentials.Method) throws(CouchFailure) -> Credentials {
        if let seconds = admin.loginRefusal(for: clientAddress) {
            throw CouchFailure(.tooManyLoginFailures, headers: [("Retry-After", String(seconds))])
        }
        var verdict = AdminVerdict.ok
        let account: UserAccount?
        // A client's connections sending the same account's password at once (when its remembered success has
        // expired) share one check and one attempt, instead of the eleventh being refused as a guess.
        let key = Crypto.sha256(Array("_users\u{0}\(name)\u{0}\(password)".utf8))
        do {
            account = try users.verify(name: name, password: password) { check in
                verdict = admin.limitedCheck(clientAddress: clientAddress, credentials: key, check)
                return verdict == .ok
            }
        } catch {
            throw CouchFailure(.internalError)
        }
        if case .rateLimited(let seconds) = verdict {
            throw CouchFailure(.tooManyLoginFailures, headers: [("Retry-After", String(seconds))])
        }
        guard let account else { throw CouchFailure(.badCredentials) }
        return Credentials(user: account, method: method)
    }

    /// A new token for `user`, or nil when the key cannot be formed (no such account, or no password hash).
    func issueToken(user: String) -> String? {
        guard let key = key(for: user) else { return nil }
        return SessionCookie.token(user: user, time: Int64(now()), key: key)
    }

    /// Whether a cookie issued at `issuedAt` is past 10% of its lifetime, so the response should carry a
    /// fresh one (§2.7.3).
    func needsRefresh(issuedAt: Int64) -> Bool {
        Int64(now()) - issuedAt > sessionTimeout / 10
    }

    private func verify(token: String) -> Credentials? {
        guard let parsed = SessionCookie.parse(token) else { return nil }
        // Valid while now < T + timeout.
        guard Double(parsed.time) + Double(sessionTimeout) > now() else { return nil }
        if parsed.user == admin.name {
            guard let key = key(for: parsed.user), SessionCookie.verify(parsed, key: key) else { return nil }
            return Credentials(name: parsed.user, roles: ["_admin"], method: .cookie(issuedAt: parsed.time))
        }
        // A user's key includes the salt of their current hash: a new password ends their sessions.
        guard let account = try? users.account(named: parsed.user), let userSalt = account.credential?.salt,
              SessionCookie.verify(parsed, key: secret + Array(userSalt.utf8)) else { return nil }
        return Credentials(user: account, method: .cookie(issuedAt: parsed.time))
    }

    /// `verify(token:)` under a key already at hand.
    private func verify(token: String, key: [UInt8], clock: Double) -> Credentials? {
        guard let parsed = SessionCookie.parse(token), parsed.user == admin.name,
              Double(parsed.time) + Double(sessionTimeout) > clock, SessionCookie.verify(parsed, key: key) else { return nil }
        return Credentials(name: parsed.user, roles: ["_admin"], method: .cookie(issuedAt: parsed.time))
    }

    /// `server_secret ‖ user_salt`.
    private func key(for user: String) -> [UInt8]? {
        if user == admin.name {
            guard let current = currentSalt(now()) else { return nil }
            return secret + Array(current.utf8)
        }
        guard let account = try? users.account(named: user), let userSalt = account.credential?.salt else { return nil }
        return secret + Array(userSalt.utf8)
    }

    /// The admin's password salt, re-read after `saltLifetime` seconds; it changes with the password.
    private func currentSalt(_ clock: Double) -> String? {
        if let cached = salt.withLock({ $0 }), cached.until > clock { return cached.value }
        guard let current = try? admin.sessionSalt() else { return nil }
        salt.withLock { $0 = (current, clock + Self.saltLifetime) }
        return current
    }
}

extension Credentials {
    /// A `_users` account's credentials. Roles starting with `_` are dropped: they are the server's to
    /// grant (§3.10 forbids them in user documents; a document replicated in with one gains nothing).
    init(user account: UserAccount, method: Method) {
        self.init(name: account.name, roles: account.roles.filter { !$0.hasPrefix("_") }, method: method)
    }
}

/// A keyed 128-bit digest of a header value: two SipHash runs (Swift's `Hasher`, seeded per process) under a
/// 32-byte random key of the authenticator's. Equal digests mean equal headers except with probability
/// 2^-128 even for a caller who chooses the headers, since the key is secret; every miss goes through the
/// full check and counts against the failed-login limit.
struct HeaderDigest: Equatable, Sendable {
    let high: Int
    let low: Int

    init(_ value: String, key: [UInt8]) {
        var value = value
        func run(_ half: Int) -> Int {
            var hasher = Hasher()
            key.withUnsafeBytes { hasher.combine(bytes: UnsafeRawBufferPointer(rebasing: $0[(half * 16)..<(half * 16 + 16)])) }
            value.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
            return hasher.finalize()
        }
        high = run(0)
        low = run(1)
    }
}
