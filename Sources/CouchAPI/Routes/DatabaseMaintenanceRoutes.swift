import Core
import HTTP

/// `_ensure_full_commit`, `_compact`, `_compact/{ddoc}`, `_view_cleanup` and `_revs_limit` (spec §3.2.5–3.2.7).
enum DatabaseMaintenanceRoutes {
    static func handle(_ call: CouchCall) throws -> HTTPResponse {
        switch call.route {
        case .ensureFullCommit(let name):
            try RequestBodies.requireJSON(call.request, allowsMissing: true)
            let db = try record(call, name)
            // Every acknowledged write is already durable (§5.10): this only confirms, and must answer 201 with
            // the same string as GET /{db} (the CouchDB replicator accepts nothing else).
            var body = JSONObject()
            body["ok"] = .bool(true)
            body["instance_start_time"] = .string(db.instanceStartTime)
            return CouchResponse.json(.created, .object(body))
        case .compact(let name):
            try RequestBodies.requireJSON(call.request, allowsMissing: true)
            _ = try record(call, name)
            call.context.compactor.start(name)
            return CouchResponse.ok(.accepted)
        case .compactDesign(let name, let designName):
            try RequestBodies.requireJSON(call.request, allowsMissing: true)
            let db = try record(call, name)
            // No view indexes exist, so there is nothing to compact; the design document must exist.
            let id = DocumentID.designPrefix + designName
            let doc = try call.store.read { try $0.document(databaseID: db.id, id: id) }
            guard let doc, doc.tree.winner?.deleted == false else { throw CouchError.missing }
            return CouchResponse.ok(.accepted)
        case .viewCleanup(let name):
            try RequestBodies.requireJSON(call.request, allowsMissing: true)
            _ = try record(call, name)
            return CouchResponse.ok(.accepted)
        case .revsLimit(let name):
            if call.method == .put { return try setRevsLimit(call, name) }
            let db = try record(call, name)
            return CouchResponse.json(.ok, bytes: Array("\(db.revsLimit)\n".utf8))
        default:
            throw CouchError.internalError
        }
    }

    private static func record(_ call: CouchCall, _ name: String) throws -> DatabaseRecord {
        guard let db = try call.store.read({ try $0.database(named: name) }) else { throw CouchError.databaseMissing }
        return db
    }

    /// A bare JSON integer ≥ 1; anything else is 400 "Rev limit has to be an integer".
    private static func setRevsLimit(_ call: CouchCall, _ name: String) throws -> HTTPResponse {
        _ = try record(call, name)
        let value = try RequestBodies.json(call.request, limit: 1 << 10)
        guard case .number(let number) = value, number.isInteger, let limit = number.int64Value else {
            throw CouchError.badRequest("Rev limit has to be an integer")
        }
        guard limit >= 1, limit <= Int64(Int32.max) else { throw CouchError.badRequest("Rev limit has to be a positive integer") }
        guard try call.store.setRevsLimit(database: name, limit: Int(limit)) else { throw CouchError.databaseMissing }
        return CouchResponse.ok()
    }
}
