import Core

/// The built-in rules for writes to `_users` documents (spec §3.10; they stand in for CouchDB's
/// `_design/_auth` validation function, which cannot run here), and the replacement of a plaintext
/// `password` by its PBKDF2 hash. Violations are 403 `forbidden` with CouchDB's reasons, in CouchDB's order.
enum UserDocumentRules {
    /// Members that hold a password hash: only the server writes them (from `password`), or the server admin.
    static let hashMembers = ["derived_key", "salt", "iterations", "password_scheme", "pbkdf2_prf", "password_sha"]

    /// Checks a write of document `id` with `body` (special members removed) by `caller`. `old` is the body
    /// of the document's current live winner, nil for a creation. A string `password` is replaced in `body`
    /// by hash members with `iterations` PBKDF2 rounds.
    static func apply(id: String, body: inout JSONObject, deleted: Bool, old: JSONObject?, caller: Credentials,
                      iterations: Int) throws(CouchError) {
        let isAdmin = caller.isServerAdmin
        let own = caller.name.map { id == UserAccount.idPrefix + $0 } ?? false
        if deleted {
            guard isAdmin || own else { throw .forbidden("Only admins may delete other user docs.") }
            return
        }
        guard body["type"]?.stringValue == "user" else { throw .forbidden("doc.type must be user") }
        guard let name = body["name"]?.stringValue, !name.isEmpty else { throw .forbidden("doc.name is required") }
        guard let rolesValue = body["roles"] else { throw .forbidden("doc.roles must exist") }
        guard case .array(let roleItems) = rolesValue else { throw .forbidden("doc.roles must be an array") }
        var roles: [String] = []
        for item in roleItems {
            guard case .string(let role) = item else { throw .forbidden("doc.roles can only contain strings") }
            roles.append(role)
        }
        guard id == UserAccount.idPrefix + name else {
            throw .forbidden("Doc ID must be of the form org.couchdb.user:name")
        }
        if let old, let oldName = old["name"]?.stringValue, oldName != name {
            throw .forbidden("Usernames can not be changed.")
        }
        if !isAdmin {
            if let old {
                guard own else { throw .forbidden("You may only update your own user document.") }
                let oldRoles = old["roles"]?.arrayValue?.compactMap(\.stringValue) ?? []
                guard oldRoles.sorted() == roles.sorted() else { throw .forbidden("Only _admin may edit roles") }
            } else if !roles.isEmpty {
                throw .forbidden("Only _admin may set roles")
            }
        }
        if roles.contains(where: { $0.hasPrefix("_") }) {
            throw .forbidden("No system roles (starting with underscore) in users db.")
        }
        // Decision §3.10: a ':' would break Basic credentials and the AuthSession cookie.
        if name.contains(":") { throw .forbidden("Usernames may not contain ':'.") }
        if !isAdmin {
            // A user may send their stored hash back unchanged (a read-modify-write), never set one.
            for key in hashMembers where body[key] != nil && body[key] != old?[key] {
                throw .forbidden("Only the server sets \(key); send password instead.")
            }
        }
        guard let password = body["password"] else { return }
        guard case .string(let text) = password else { throw .badRequest("password must be a string") }
        body.removeValue(forKey: "password")
        for key in hashMembers { body.removeValue(forKey: key) }
        guard let members = UserAccount.hashMembers(password: text, iterations: iterations) else {
            throw .internalError
        }
        for (key, value) in members { body[key] = value }
    }
}
