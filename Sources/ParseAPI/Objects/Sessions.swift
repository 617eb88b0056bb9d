import Core
import Auth

/// Session creation and lookup helpers (spec §3.5, §10). Tokens are `r:` + 32 hex characters; only their
/// SHA-256 is stored (hidden field `_token_hash`).
enum Sessions {
    static func newToken() -> String { "r:" + Hex.encode(Crypto.randomBytes(16)) }

    /// Creates a session for `userId` inside the transaction; returns the clear token and the object.
    static func create(_ tx: any ParseTransaction, userId: String, installationId: String?, createdWith: JSONObject,
                       config: ParseConfig, extra: JSONObject = JSONObject()) throws -> (String, StoredObject) {
        let token = newToken()
        let now = ParseDate.nowMillis()
        var data = extra
        data["user"] = ["__type": "Pointer", "className": "_User", "objectId": .string(userId)]
        data["createdWith"] = .object(createdWith)
        data["restricted"] = false
        if let installationId { data["installationId"] = .string(installationId) }
        if config.expireInactiveSessions {
            data["expiresAt"] = ["__type": "Date",
                                 "iso": .string(ParseDate.format(epochMillis: now + config.sessionLength * 1000))]
        }
        data["_token_hash"] = .string(TokenHasher.hash(token))
        let ts = ParseDate.format(epochMillis: now)
        var object = StoredObject(className: "_Session", objectId: RandomID.alphanumeric(10), data: data,
                                  acl: [userId: ["read": true, "write": true]], createdAt: ts, updatedAt: ts)
        var attempts = 0
        while true {
            do {
                try tx.insert(object)
                return (token, object)
            } catch StoreConflict.objectId where attempts < 5 {
                attempts += 1
                object.objectId = RandomID.alphanumeric(10)
            }
        }
    }

    /// Deletes every session of a user (password change, user deletion).
    static func deleteAll(_ tx: any ParseTransaction, userId: String) throws {
        for s in try tx.find("_Session", path: ["user", "objectId"], equals: .text(userId), limit: 100_000) {
            try tx.delete("_Session", s.objectId)
        }
    }

    /// The session stored for a clear token, if it exists and has not expired.
    static func lookup(_ tx: any ParseTransaction, token: String) throws -> StoredObject? {
        guard !token.isEmpty, token.utf8.count <= 256,
              let s = try tx.find("_Session", path: ["_token_hash"], equals: .text(TokenHasher.hash(token)), limit: 1).first
        else { return nil }
        if let exp = s.data["expiresAt"]?["iso"]?.stringValue, exp <= ParseDate.now() { return nil }
        return s
    }
}
