import Foundation
import Core
import HTTP

/// `/{db}` (spec §3.2.1–3.2.4): create, info, delete, and `POST` of a document with a server id.
enum DatabaseRoute {
    static func handle(_ call: CouchCall) throws -> Reply {
        guard case .database(let name) = call.route else { throw CouchError.internalError }
        switch call.method {
        case .put: return .response(call.finish(try create(call, name)))
        case .delete: return .response(call.finish(try delete(call, name)))
        case .post: return try DocumentWriteRoute.post(call, database: name)
        default: return .response(call.finish(try info(call, name)))
        }
    }

    /// §3.2.1. An existing database answers 412 before the name or any parameter is looked at (CouchDB's
    /// order, settled by the issue).
    private static func create(_ call: CouchCall, _ name: String) throws -> HTTPResponse {
        if try call.store.read({ try $0.database(named: name) }) != nil { throw CouchError.fileExists }
        try DatabaseName.validate(name, allowsUsersDatabase: true)
        if call.query.flag("partitioned") { throw CouchError.badRequest("Partitioned databases are not supported.") }
        // µs since the epoch: instance_start_time. A re-created database gets a new value (§4.8).
        let micros = Int64(Date().timeIntervalSince1970 * 1_000_000)
        guard try call.store.createDatabase(name: name, createdMicros: micros) else { throw CouchError.fileExists }
        return CouchResponse.ok(.created, headers: [("Location", call.absoluteURL([name]))])
    }

    /// §3.2.3, with CouchDB's `?rev=` quirk kept.
    private static func delete(_ call: CouchCall, _ name: String) throws -> HTTPResponse {
        if call.query.value("rev") != nil {
            throw CouchError.badRequest(
                "You tried to DELETE a database with a ?=rev parameter. Did you mean to DELETE a document instead?")
        }
        guard try call.store.deleteDatabase(name: name) else { throw CouchError.databaseMissing }
        return CouchResponse.ok()
    }

    /// §3.2.2.
    private static func info(_ call: CouchCall, _ name: String) throws -> HTTPResponse {
        guard let db = try call.store.read({ try $0.database(named: name) }) else { throw CouchError.databaseMissing }
        return CouchResponse.json(.ok, .object(infoObject(db, compactRunning: call.context.compactor.isRunning(name))))
    }

    /// The info object: numeric `update_seq` and `purge_seq`, string `instance_start_time` (§4.8).
    static func infoObject(_ db: DatabaseRecord, compactRunning: Bool) -> JSONObject {
        // `file` estimates the database's share of the SQLite file: live data plus about 64 bytes of index
        // entries per document and a page of fixed overhead. Sizes are estimates by contract (§3.2.2).
        let file = db.activeSize + (db.docCount + db.docDelCount) * 64 + 4096
        var sizes = JSONObject()
        sizes["file"] = .number(JSONNumber(file))
        sizes["external"] = .number(JSONNumber(db.externalSize))
        sizes["active"] = .number(JSONNumber(db.activeSize))
        var cluster = JSONObject()
        for key in ["q", "n", "w", "r"] { cluster[key] = .int(1) }
        var body = JSONObject()
        body["db_name"] = .string(db.name)
        body["purge_seq"] = .number(JSONNumber(db.purgeSeq))
        body["update_seq"] = .number(JSONNumber(db.updateSeq))
        body["sizes"] = .object(sizes)
        body["props"] = .object(JSONObject())
        body["doc_del_count"] = .number(JSONNumber(db.docDelCount))
        body["doc_count"] = .number(JSONNumber(db.docCount))
        body["disk_format_version"] = .int(8)
        body["compact_running"] = .bool(compactRunning)
        body["cluster"] = .object(cluster)
        body["instance_start_time"] = .string(db.instanceStartTime)
        return body
    }
}
