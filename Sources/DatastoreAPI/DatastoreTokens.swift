import Auth
import Core

/// Issuing and revoking datastore tokens (CLI, admin endpoint). Only SHA-256 hashes are stored.
enum DatastoreTokens {
    /// A new token: 43 dbase64 characters from 32 CSPRNG bytes, which the Python SDK's token check accepts.
    /// A token starting with `-` is drawn again: command lines (`quartet datastore token revoke TOKEN`, curl
    /// `-d token=...` scripts) would read it as an option. This drops 1/64 of the space, keeping ~250 bits.
    static func generate() -> String {
        while true {
            let token = DBase64.encode(Crypto.randomBytes(32))
            if token.first != "-" { return token }
        }
    }

    /// Creates the user if needed and issues a token for it.
    static func issue(userName: String, store: any DatastoreStore, source: String) throws -> (DatastoreUser, String) {
        let token = generate()
        let user = try store.issueToken(userName: userName, tokenHash: TokenHasher.hash(token), source: source)
        return (user, token)
    }

    /// Revokes a token; false when unknown or already revoked.
    static func revoke(_ token: String, store: any DatastoreStore) throws -> Bool {
        try store.revokeToken(hash: TokenHasher.hash(token))
    }
}
