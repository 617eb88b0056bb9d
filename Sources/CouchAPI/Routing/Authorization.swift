import HTTP

/// Who may do what (spec §2.8). P1 has one user, the server admin, and no `_security` objects, so every
/// database is admin-only. The check runs before anything looks at whether the database exists, so an
/// anonymous caller learns nothing about which databases there are.
enum Authorization {
    static func check(_ route: CouchRoute, method: HTTPMethod, credentials: Credentials) throws(CouchError) {
        switch route {
        case .welcome, .up, .session, .notImplemented:
            return
        case .uuids:
            // Decision §2.8: only `/` and `/_up` stay public.
            if credentials.name == nil { throw .unauthorized("Authentication required.") }
        case .allDatabases:
            try requireServerAdmin(credentials)
        case .database where method == .put || method == .delete:
            try requireServerAdmin(credentials)
        default:
            // Member, db admin: in P1 both mean the server admin. A database that does not exist is treated
            // as admin-only.
            guard credentials.name != nil else { throw .unauthorized("You are not authorized to access this db.") }
            guard credentials.isServerAdmin else { throw .forbidden("You are not allowed to access this db.") }
        }
    }

    /// CouchDB's `verify_is_server_admin`: 401 for every caller who is not the server admin.
    private static func requireServerAdmin(_ credentials: Credentials) throws(CouchError) {
        guard credentials.isServerAdmin else { throw .unauthorized("You are not a server admin.") }
    }
}
