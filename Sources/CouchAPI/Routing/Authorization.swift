import HTTP

/// What the caller may do in the database a request addresses (spec §2.8).
struct Permissions: Sendable {
    /// Access levels, each including the ones below it.
    enum Level: Int, Comparable, Sendable {
        /// Not a database request, or one on `_users` whose document rules decide (§3.10).
        case none
        case member
        case databaseAdmin
        case serverAdmin

        static func < (a: Level, b: Level) -> Bool { a.rawValue < b.rawValue }
    }

    let level: Level
    /// Whether a design document of the database has a `validate_doc_update` function, which cannot run, so
    /// writes by callers below db admin are refused (Decision §2.8: fail closed).
    let validatesUpdates: Bool

    static let serverAdmin = Permissions(level: .serverAdmin, validatesUpdates: false)
    static let none = Permissions(level: .none, validatesUpdates: false)

    var isDatabaseAdmin: Bool { level >= .databaseAdmin }
}

/// Who may do what (spec §2.8). The check runs before anything looks at whether the database exists, so an
/// anonymous caller learns nothing about which databases there are; a database that does not exist is
/// admin-only. The server admin passes without any lookup; other callers' database facts come from the
/// `AccessCache`.
enum Authorization {
    static func check(_ route: CouchRoute, method: HTTPMethod, credentials: Credentials,
                      context: CouchContext) throws -> Permissions {
        if credentials.isServerAdmin { return .serverAdmin }
        switch route {
        case .welcome, .up, .session, .notImplemented:
            return .none
        case .uuids:
            // Decision §2.8: only `/` and `/_up` stay public.
            if credentials.name == nil { throw CouchError.unauthorized("Authentication required.") }
            return .none
        case .allDatabases:
            throw serverAdminRequired
        case .database where method == .put || method == .delete:
            throw serverAdminRequired
        default:
            guard let database = route.database else { return .none }
            if database == UsersDatabase.name {
                return try usersDatabase(route, method: method, credentials: credentials, context: context)
            }
            // Only a public database (empty members, `couch.publicWhenMembersEmpty`) admits anonymous callers:
            // without that setting they are refused before any lookup, so random names cost no reads.
            if credentials.name == nil, !context.config.publicWhenMembersEmpty { throw notAllowed(credentials) }
            let facts = try context.access.facts(database)
            let permissions = grant(facts, credentials: credentials, publicWhenMembersEmpty: context.config.publicWhenMembersEmpty)
            guard permissions.level >= .member else { throw notAllowed(credentials) }
            if needsDatabaseAdmin(route, method: method), !permissions.isDatabaseAdmin {
                throw notDatabaseAdmin(credentials)
            }
            return permissions
        }
    }

    /// The level `credentials` have under `facts` (nil: no such database, admin-only).
    static func grant(_ facts: DatabaseFacts?, credentials: Credentials, publicWhenMembersEmpty: Bool) -> Permissions {
        guard let facts else { return .none }
        let security = facts.security
        let level: Permissions.Level
        if credentials.name != nil, security.admins.matches(name: credentials.name, roles: credentials.roles) {
            level = .databaseAdmin
        } else if security.members.isEmpty {
            // Decision §2.8: no members means admin-only, unless configured the CouchDB way (public).
            level = publicWhenMembersEmpty ? .member : .none
        } else if credentials.name != nil, security.members.matches(name: credentials.name, roles: credentials.roles) {
            level = .member
        } else {
            level = .none
        }
        return Permissions(level: level, validatesUpdates: facts.validatesUpdates)
    }

    /// Resources only db admins use: `PUT _security`, `PUT _revs_limit`, compaction, `_view_cleanup`,
    /// `_purge`. Design documents are checked by the write handlers (they know the document id).
    static func needsDatabaseAdmin(_ route: CouchRoute, method: HTTPMethod) -> Bool {
        switch route {
        case .compact, .compactDesign, .viewCleanup: return true
        case .revsLimit: return method == .put
        case .databaseFeature(_, let feature): return feature == "_purge" || (feature == "_security" && method == .put)
        default: return false
        }
    }

    /// `_users` (§3.10): users reach their own document (the document handlers apply the rules), anonymous
    /// callers only a sign-up when it is enabled; everything else there is the server admin's.
    private static func usersDatabase(_ route: CouchRoute, method: HTTPMethod, credentials: Credentials,
                                      context: CouchContext) throws -> Permissions {
        let anonymous = credentials.name == nil
        switch route {
        case .document where method != .copy:
            // Reading, updating or deleting needs a login; creating without one is a sign-up.
            if anonymous, !(method == .put && context.config.usersPublicSignup) { throw usersUnauthorized }
            return .none
        case .database where method == .post:
            if anonymous, !context.config.usersPublicSignup { throw usersUnauthorized }
            return .none
        case .databaseFeature(_, "_security") where method == .put:
            if anonymous { throw usersUnauthorized }
            throw CouchError.forbidden("You can't edit the security object of the user database.")
        default:
            if anonymous { throw usersUnauthorized }
            throw CouchError.forbidden("Only the server admin may use this resource of the user database.")
        }
    }

    private static let usersUnauthorized = CouchError.unauthorized("You are not authorized to access this db.")

    /// Design documents need a db admin (§2.8): 401 for anonymous callers, 403 for named ones.
    static func notDatabaseAdmin(_ credentials: Credentials) -> CouchError {
        credentials.name == nil ? .unauthorized("You are not a db or server admin.")
            : .forbidden("You are not a db or server admin.")
    }

    private static func notAllowed(_ credentials: Credentials) -> CouchError {
        credentials.name == nil ? .unauthorized("You are not authorized to access this db.")
            : .forbidden("You are not allowed to access this db.")
    }

    /// CouchDB's `verify_is_server_admin`: 401 for every caller who is not the server admin.
    private static let serverAdminRequired = CouchError.unauthorized("You are not a server admin.")
}
