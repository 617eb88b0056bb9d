import Foundation
import Core

/// Remembers the last credentials that passed the (slow, by design) bcrypt check, as the SHA-256 of
/// `name:password`, for `lifetime` seconds, so that scripts calling the admin API in a loop are not
/// throttled by bcrypt. Only a digest is kept, never the password, and it is compared in constant time.
final class VerifiedCredentialCache: @unchecked Sendable {
    private let lifetime: Double
    private let lock = NSLock()
    private var verified: (digest: [UInt8], until: Double)?

    /// A cache whose entry lasts `lifetime` seconds.
    init(lifetime: Double) {
        self.lifetime = lifetime
    }

    /// The key of `name` and `password`.
    static func digest(name: String, password: String) -> [UInt8] {
        Crypto.sha256(Array("\(name):\(password)".utf8))
    }

    /// True when `digest` was verified less than `lifetime` seconds before `now`.
    func contains(_ digest: [UInt8], now: Double) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard let entry = verified, now < entry.until else { return false }
        return Crypto.constantTimeEquals(entry.digest, digest)
    }

    /// Remembers `digest` as verified at `now`.
    func insert(_ digest: [UInt8], now: Double) {
        lock.lock()
        defer { lock.unlock() }
        verified = (digest, now + lifetime)
    }

    /// Forgets everything (the password changed).
    func removeAll() {
        lock.lock()
        defer { lock.unlock() }
        verified = nil
    }
}
