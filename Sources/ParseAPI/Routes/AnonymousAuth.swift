import Core

/// `authData` with the `anonymous` provider (spec §9.2); other providers are not supported yet.
enum AnonymousAuth {
    static let unsupported = ParseError(252, "This authentication method is unsupported.")

    /// The anonymous id of a valid `{"anonymous":{"id":"..."}}`; throws 252 otherwise.
    static func anonymousId(_ authData: JSON?, config: ParseConfig) throws -> String {
        guard config.enableAnonymousUsers, let ad = authData?.objectValue, ad.count == 1,
              let entry = ad["anonymous"]?.objectValue, let id = entry["id"]?.stringValue, !id.isEmpty else {
            throw unsupported
        }
        return id
    }

    static func signUpOrLogin(_ c: ParseContext) throws -> ParseReply {
        let anonId = try anonymousId(c.body["authData"], config: c.config)
        let caller = c.caller, config = c.config, installationId = c.installationId
        var body = c.body
        body["authData"] = nil
        body["sessionToken"] = nil
        var w = try WriteRequest.create(body, className: "_User", config: config, caller: caller)
        let id = w.customObjectId ?? RandomID.alphanumeric(10)
        w.customObjectId = id
        let username = RandomID.alphanumeric(25)
        w.operations.append((["username"], .set(.string(username))))
        w.operations.append((["_username_folded"], .set(.string(username.lowercased()))))
        w.operations.append((["authData"], .set(["anonymous": ["id": .string(anonId)]])))
        w.operations.append((["_anonymous_id"], .set(.string(anonId))))
        let acl = UsersRoutes.defaultACL(w, id: id, config: config)
        let w0 = w
        let outcome = try c.write { tx -> (StoredObject, ObjectWriter.Result?, String) in
            if let existing = try tx.find("_User", path: ["_anonymous_id"], equals: .text(anonId), limit: 1).first {
                let (token, _) = try Sessions.create(tx, userId: existing.objectId, installationId: installationId,
                                                     createdWith: ["action": "login", "authProvider": "anonymous"],
                                                     config: config)
                return (existing, nil, token)
            }
            let result = try ObjectWriter(tx: tx, caller: caller, config: config).create("_User", w0, acl: .some(acl))
            let (token, _) = try Sessions.create(tx, userId: id, installationId: installationId,
                                                 createdWith: ["action": "login", "authProvider": "anonymous"], config: config)
            return (result.object, result, token)
        }
        if let created = outcome.1 {
            var reply = ClassesRoutes.createdReply(c, created)
            if case .object(var o) = reply.body {
                o["sessionToken"] = .string(outcome.2)
                o["username"] = .string(username)
                reply.body = .object(o)
            }
            return reply
        }
        let schema = try c.read { try Schemas.load("_User", $0) }
        var out = UsersRoutes.ownView(c, outcome.0, schema: schema)
        out["sessionToken"] = .string(outcome.2)
        return .ok(out)
    }

    /// Linking (`{"anonymous":{"id"}}`) and unlinking (`{"anonymous":null}`) on an update.
    static func applyLink(_ authData: JSON, to w: inout WriteRequest, user: StoredObject, tx: any ParseTransaction,
                          config: ParseConfig) throws {
        guard let ad = authData.objectValue, ad.count == 1, let entry = ad["anonymous"] else { throw unsupported }
        var current = user.data["authData"]?.objectValue ?? JSONObject()
        if entry.isNull {
            current["anonymous"] = nil
            w.operations.append((["_anonymous_id"], .delete))
        } else {
            let anonId = try anonymousId(authData, config: config)
            if let other = try tx.find("_User", path: ["_anonymous_id"], equals: .text(anonId), limit: 1).first,
               other.objectId != user.objectId {
                throw ParseError(208, "this auth is already used")
            }
            current["anonymous"] = ["id": .string(anonId)]
            w.operations.append((["_anonymous_id"], .set(.string(anonId))))
        }
        w.operations.append((["authData"], current.isEmpty ? .delete : .set(.object(current))))
    }
}
