import Core
import Storage

extension SQLiteBackbeamStore {
    public func socialLogin(space: SpaceID, _ login: SocialLogin) throws -> SocialOutcome {
        let (outcome, catalogueChanged) = try storage.writeAndWait { ctx -> (SocialOutcome, Bool) in
            let db = ctx.db
            let data = JSON.object(JSONObject(login.loginData.map { ($0.key, JSON.string($0.value)) })).serialized()
            let linked = try db.queryOne("""
                SELECT i.object, o.id FROM bb_identities i JOIN bb_objects o ON o.seq = i.object
                WHERE i.space = ? AND i.provider = ? AND i.provider_id = ?
                """, [.integer(space.value), .text(login.provider), .text(login.providerID)])
            if let linked, let seq = linked[0].int64, let id = linked[1].string {
                if let authUser = login.authUser, authUser != id { return (.linkedElsewhere, false) }
                try db.run("UPDATE bb_identities SET login_data = ? WHERE space = ? AND provider = ? AND provider_id = ?",
                           [.text(data), .integer(space.value), .text(login.provider), .text(login.providerID)])
                try LoginMembers.render(db, object: seq)
                try UserGrants.apply(UserGrant(sessionHash: login.sessionHash), db: db, space: space, object: seq, now: login.now)
                return (.returning(id), false)
            }
            var changed = false
            let seq: Int64, outcome: SocialOutcome
            if let authUser = login.authUser, let owner = try UserGrants.userSeq(db, space: space, id: authUser) {
                (seq, outcome) = (owner, .linked(authUser))
            } else {
                var writer = ObjectWriter(db: db, request: WriteRequest(space: space, entity: "user", commands: CommandSet(),
                                                                        now: login.now, limits: login.limits))
                let record = try writer.create()
                changed = writer.catalogueChanged
                (seq, outcome) = (record.seq, .created(record.id))
            }
            try db.run("""
                INSERT INTO bb_identities (space, provider, provider_id, object, login_data, linked_at) VALUES (?, ?, ?, ?, ?, ?)
                """, [.integer(space.value), .text(login.provider), .text(login.providerID), .integer(seq), .text(data),
                      .integer(login.now)])
            try LoginMembers.render(db, object: seq)
            try UserGrants.apply(UserGrant(sessionHash: login.sessionHash), db: db, space: space, object: seq, now: login.now)
            return (outcome, changed)
        }
        if catalogueChanged { self.catalogueChanged() }
        return outcome
    }
}

/// The `login_<short>_<key>` members of a user (§4.7), rendered from its identities into the object's
/// `login` column so that reads copy bytes: identities in the order they were linked, keys in provider order.
enum LoginMembers {
    static func render(_ db: Database, object: Int64) throws {
        var out: [UInt8] = []
        for row in try db.query("""
            SELECT provider, login_data FROM bb_identities WHERE object = ? ORDER BY linked_at, provider
            """, [.integer(object)]) {
            guard let provider = row[0].string,
                  let data = (try? JSONParser.parse(row[1].string ?? "{}"))?.objectValue else { continue }
            for (key, value) in data {
                guard let text = value.stringValue else { continue }
                if !out.isEmpty { out.append(UInt8(ascii: ",")) }
                ObjectBytes.appendString("login_\(provider)_\(key)", to: &out)
                out.append(UInt8(ascii: ":"))
                ObjectBytes.appendString(text, to: &out)
            }
        }
        try db.run("UPDATE bb_objects SET login = ? WHERE seq = ?", [.blobText(out), .integer(object)])
    }
}
