import Core

/// A user of the `_users` database (spec §3.10) as authentication sees it: name, roles and the stored
/// password hash of its document `org.couchdb.user:{name}`.
struct UserAccount: Sendable, Equatable {
    /// How the password is stored.
    enum Credential: Sendable, Equatable {
        /// `password_scheme: "pbkdf2"`: PBKDF2 over the salt string's bytes; without `pbkdf2_prf` it is
        /// HMAC-SHA1 (CouchDB ≤ 3.3's format, what replicated `_users` documents carry).
        case pbkdf2(hash: Crypto.PBKDF2Hash, iterations: Int, salt: String, derivedKey: [UInt8])
        /// `password_scheme: "simple"`: `password_sha` is hex SHA-1 of the password followed by the salt.
        case simple(salt: String, sha: [UInt8])

        /// The salt in its stored text form: the user's part of the `AuthSession` key (§2.7.3).
        var salt: String {
            switch self {
            case .pbkdf2(_, _, let salt, _), .simple(let salt, _): return salt
            }
        }
    }

    /// The document id prefix of user accounts.
    static let idPrefix = "org.couchdb.user:"
    /// Most PBKDF2 iterations a stored hash may ask for; beyond, the account cannot log in (one login must
    /// not occupy a worker for minutes).
    static let maxIterations = 10_000_000

    let name: String
    let roles: [String]
    /// Nil when the document carries no usable hash: the account cannot log in.
    let credential: Credential?

    /// The account in a user document's body; nil when it is not one (no string `name`).
    init?(body: JSONObject) {
        guard case .string(let name)? = body["name"], !name.isEmpty else { return nil }
        self.name = name
        roles = body["roles"]?.arrayValue?.compactMap(\.stringValue) ?? []
        credential = Self.credential(body)
    }

    private static func credential(_ body: JSONObject) -> Credential? {
        guard let salt = body["salt"]?.stringValue else { return nil }
        switch body["password_scheme"]?.stringValue {
        case "pbkdf2":
            let hash: Crypto.PBKDF2Hash
            switch body["pbkdf2_prf"]?.stringValue {
            case nil: hash = .sha1
            case "sha"?, "sha1"?: hash = .sha1
            case "sha256"?: hash = .sha256
            case "sha512"?: hash = .sha512
            default: return nil
            }
            guard let iterations = body["iterations"]?.int64Value, iterations > 0, iterations <= Int64(maxIterations),
                  let key = body["derived_key"]?.stringValue.flatMap(Hex.decode), !key.isEmpty, key.count <= 64 else {
                return nil
            }
            return .pbkdf2(hash: hash, iterations: Int(iterations), salt: salt, derivedKey: key)
        case "simple":
            guard let sha = body["password_sha"]?.stringValue.flatMap(Hex.decode), sha.count == 20 else { return nil }
            return .simple(salt: salt, sha: sha)
        default:
            return nil
        }
    }

    /// Whether `password` is the account's (compared in constant time).
    func verify(_ password: String) -> Bool {
        switch credential {
        case .pbkdf2(let hash, let iterations, let salt, let key)?:
            guard let derived = Crypto.pbkdf2(password: Array(password.utf8), salt: Array(salt.utf8),
                                              iterations: iterations, keyLength: key.count, hash: hash) else { return false }
            return Crypto.constantTimeEquals(derived, key)
        case .simple(let salt, let sha)?:
            return Crypto.constantTimeEquals(Crypto.sha1(Array((password + salt).utf8)), sha)
        case nil:
            return false
        }
    }

    /// The members that replace a plaintext `password` (§3.10): PBKDF2-HMAC-SHA256 with a fresh 16-byte salt
    /// (32 hex characters, used as text like CouchDB does) and a 32-byte derived key.
    static func hashMembers(password: String, iterations: Int) -> [(String, JSON)]? {
        let salt = Hex.encode(Crypto.randomBytes(16))
        guard let key = Crypto.pbkdf2(password: Array(password.utf8), salt: Array(salt.utf8), iterations: iterations,
                                      keyLength: 32, hash: .sha256) else { return nil }
        return [("password_scheme", .string("pbkdf2")), ("pbkdf2_prf", .string("sha256")),
                ("iterations", .int(iterations)), ("salt", .string(salt)), ("derived_key", .string(Hex.encode(key)))]
    }
}
