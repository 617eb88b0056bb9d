import Foundation
import Core
import Auth
import HTTP
import Storage

/// Checks HTTP Basic credentials of the server admin for `/_quartet/admin/...`.
///
/// bcrypt costs tens of milliseconds by design; a successful check is remembered as the SHA-256 of the
/// credentials for a minute so that scripts calling the admin API in a loop are not throttled by it.
public final class AdminAuthenticator: @unchecked Sendable {
    private let storage: Storage
    private let user: String
    private let lock = NSLock()
    private var verified: (digest: [UInt8], until: Date)?

    /// Creates an authenticator for the admin named `user`.
    public init(storage: Storage, user: String) {
        self.storage = storage
        self.user = user
    }

    /// True when the request carries the admin's valid Basic credentials.
    public func isAdmin(_ request: HTTPRequest) -> Bool {
        guard let header = request.headers["Authorization"],
              let credentials = BasicCredentials(authorization: header), credentials.name == user else { return false }
        let (name, password) = (credentials.name, credentials.password)
        let digest = Crypto.sha256(Array("\(name):\(password)".utf8))
        lock.lock()
        if let v = verified, v.until > Date(), Crypto.constantTimeEquals(v.digest, digest) {
            lock.unlock()
            return true
        }
        lock.unlock()
        let hash = try? storage.read { db in
            try db.queryOne("SELECT password_hash FROM quartet_admin_users WHERE name = ?", [.text(name)])?["password_hash"].string
        }
        guard let stored = hash ?? nil, PasswordHasher.verify(password, hash: stored) else { return false }
        lock.lock()
        verified = (digest, Date().addingTimeInterval(60))
        lock.unlock()
        return true
    }
}
