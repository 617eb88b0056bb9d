import Core
import Storage

extension SQLiteTransaction {
    func addRelation(ownerClass: String, field: String, ownerId: String, memberClass: String, memberIds: [String]) throws {
        for m in memberIds {
            try db.run("INSERT OR IGNORE INTO parse_relations (owner_class, field, owner_id, member_class, member_id) "
                       + "VALUES (?, ?, ?, ?, ?)",
                       [.text(ownerClass), .text(field), .text(ownerId), .text(memberClass), .text(m)])
        }
    }

    func removeRelation(ownerClass: String, field: String, ownerId: String, memberIds: [String]) throws {
        for m in memberIds {
            try db.run("DELETE FROM parse_relations WHERE owner_class = ? AND field = ? AND owner_id = ? AND member_id = ?",
                       [.text(ownerClass), .text(field), .text(ownerId), .text(m)])
        }
    }

    func relationMembers(ownerClass: String, field: String, ownerId: String) throws -> [String] {
        try db.query("SELECT member_id FROM parse_relations WHERE owner_class = ? AND field = ? AND owner_id = ?",
                     [.text(ownerClass), .text(field), .text(ownerId)]).compactMap { $0["member_id"].string }
    }

    func deleteRelations(ownerClass: String, ownerId: String) throws {
        try db.run("DELETE FROM parse_relations WHERE owner_class = ? AND owner_id = ?", [.text(ownerClass), .text(ownerId)])
    }

    func deleteMemberships(memberClass: String, memberId: String) throws {
        try db.run("DELETE FROM parse_relations WHERE member_class = ? AND member_id = ?",
                   [.text(memberClass), .text(memberId)])
    }

    func deleteRelations(ownerClass: String, field: String?) throws {
        if let field {
            try db.run("DELETE FROM parse_relations WHERE owner_class = ? AND field = ?", [.text(ownerClass), .text(field)])
        } else {
            try db.run("DELETE FROM parse_relations WHERE owner_class = ?", [.text(ownerClass)])
        }
    }

    func roleNames(forUser userId: String) throws -> [String] {
        // UNION (not UNION ALL) drops rows already found, which makes cycles in the hierarchy terminate.
        let sql = """
            WITH RECURSIVE found(id) AS (
                SELECT owner_id FROM parse_relations
                 WHERE owner_class = '_Role' AND field = 'users' AND member_id = ?
                UNION
                SELECT p.owner_id FROM parse_relations p JOIN found f ON p.member_id = f.id
                 WHERE p.owner_class = '_Role' AND p.field = 'roles'
            )
            SELECT json_extract(o.data, '$."name"') AS name FROM found
              JOIN parse_objects o ON o.class = '_Role' AND o.id = found.id
            """
        return try db.query(sql, [.text(userId)]).compactMap { $0["name"].string }
    }
}
