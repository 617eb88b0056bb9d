import Core
import HTTP

/// `GET|PUT /{db}/_security` (spec §3.2.8): who administers and who may use a database. Authorization already
/// required a member for `GET` and a db admin for `PUT`.
enum SecurityRoute {
    static func handle(_ call: CouchCall, database: String) throws -> HTTPResponse {
        if call.method == .put { return try put(call, database: database) }
        let stored = try call.store.read { reader -> StoredAccess in
            guard let access = try reader.access(databaseNamed: database) else { throw CouchError.databaseMissing }
            return access
        }
        // Never set: `{}` (CouchDB-Python's test_security expects exactly that).
        var body = stored.security ?? Array("{}".utf8)
        body.append(UInt8(ascii: "\n"))
        return CouchResponse.json(.ok, bytes: body)
    }

    /// Validates the object and stores it as sent (other members kept), without touching `update_seq`.
    private static func put(_ call: CouchCall, database: String) throws -> HTTPResponse {
        // Also for the server admin: the user database's rules are built in (§3.10).
        if database == UsersDatabase.name {
            throw CouchError.forbidden("You can't edit the security object of the user database.")
        }
        let json = try DocumentWriteRoute.databaseFirst(call, database) { () throws -> JSON in
            // Any Content-Type: the body is parsed as JSON (§2.3).
            let json = try RequestBodies.json(call.request, limit: call.config.maxDocumentSize)
            _ = try SecurityObject(validating: json)
            return json
        }
        guard try call.store.setSecurity(database: database, object: json.serializedBytes()) else {
            throw CouchError.databaseMissing
        }
        return CouchResponse.ok()
    }
}
