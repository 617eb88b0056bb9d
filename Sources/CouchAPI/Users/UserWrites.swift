import Core

/// Writes to `_users` documents through the HTTP API (spec §3.10): the current document is read, the built-in
/// rules applied, and a plaintext password hashed before the edit is built.
enum UserWrites {
    /// Checks a write of `id` (not a design or `_local` document) by the call's caller, hashing a `password`
    /// member of `body`. The current document is read outside the write job: a write that races with another
    /// names a parent revision and then fails with 409, so the rules never pass on a document they did not see.
    static func check(_ call: CouchCall, id: String, body: inout JSONObject, deleted: Bool) throws {
        let old = try current(call, id: id)
        let caller = call.credentials
        if !caller.isServerAdmin, old == nil, !deleted {
            // A new account made by anyone but the server admin is a sign-up (§3.10), off by default.
            guard call.config.usersPublicSignup else {
                if caller.name == nil { throw CouchError.unauthorized("You are not authorized to access this db.") }
                throw CouchError.forbidden("You may only update your own user document.")
            }
        }
        try UserDocumentRules.apply(id: id, body: &body, deleted: deleted, old: old, caller: caller,
                                    iterations: call.config.passwordIterations)
    }

    /// The body of document `id`'s live winner in `_users`, nil when there is none.
    static func current(_ call: CouchCall, id: String) throws -> JSONObject? {
        let lookup = try call.store.winner(database: UsersDatabase.name, docID: id) { winner -> [UInt8]? in
            winner.deleted ? nil : Array(winner.body)
        }
        guard case .found(let bytes?) = lookup, case .object(let object) = try CouchJSON.parse(bytes) else { return nil }
        return object
    }

    /// Whether a caller who is not the server admin may read document `id` of `_users`: only their own.
    static func mayRead(_ call: CouchCall, id: String) -> Bool {
        call.credentials.isServerAdmin || call.credentials.name.map { id == UserAccount.idPrefix + $0 } ?? false
    }
}
