import Core
import Storage

/// The facts about a database that authorization needs (spec §2.8), read in one snapshot.
public struct StoredAccess: Sendable {
    /// The `_security` object as stored (compact JSON), nil when never set.
    public let security: [UInt8]?
    /// The bodies of the live design documents' winners (§2.8's `validate_doc_update` rule).
    public let designBodies: [[UInt8]]
}

extension SQLiteCouchStore {
    public func setSecurity(database: String, object: [UInt8]) throws -> Bool {
        let epoch = accessEpoch
        return try storage.writeAndWait { ctx -> Bool in
            // `update_seq` stays as it is (§3.2.8).
            let changed = try ctx.db.run("UPDATE couch_databases SET security = ? WHERE name = ?",
                                         [.text(String(decoding: object, as: UTF8.self)), .text(database)]) == 1
            if changed { ctx.afterCommit { epoch.advance() } }
            return changed
        }
    }

    /// Whether a write job on `database` touching `ids` changes what authorization reads: any `_users` write,
    /// any design document.
    static func changesAccess(database: String, ids: some Sequence<String>) -> Bool {
        database == UsersDatabase.name || ids.contains(where: DocumentID.isDesign)
    }
}

extension SQLiteCouchReader {
    func access(databaseNamed name: String) throws -> StoredAccess? {
        guard let row = try db.queryOne("SELECT db_id, security FROM couch_databases WHERE name = ?", [.text(name)]),
              let id = row[0].int64 else { return nil }
        let security = row[1].string.map { Array($0.utf8) }
        var bodies: [[UInt8]] = []
        // Design ids sort between "_design/" and "_design0" ('0' follows '/').
        try db.forEachRow("""
            SELECT body FROM couch_docs WHERE db_id = ? AND doc_id >= '_design/' AND doc_id < '_design0' AND deleted = 0
            """, [.integer(id)]) { row in
            if let body = row.bytes(0) { bodies.append(body) }
            return true
        }
        return StoredAccess(security: security, designBodies: bodies)
    }
}
