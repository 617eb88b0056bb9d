import Core
import HTTP

/// `/{db}/_local/{name}` (spec §3.4, §5.8): no tree, no sequence, no conflict check; revisions `0-N`.
enum LocalDocumentRoute {
    static func handle(_ call: CouchCall, database: String, id: String) throws -> Reply {
        try DocumentID.validate(id, maxLength: call.config.maxDocIdLength)
        switch call.method {
        case .put: return try put(call, database: database, id: id)
        case .delete: return try write(call, database: database, id: id, rev: 0, body: nil)
        default: return .response(call.finish(try get(call, database: database, id: id)))
        }
    }

    private static func get(_ call: CouchCall, database: String, id: String) throws -> HTTPResponse {
        let local = try call.store.read { reader -> LocalDocument in
            guard let db = try reader.database(named: database) else { throw CouchError.databaseMissing }
            guard let local = try reader.localDocument(databaseID: db.id, id: id) else { throw CouchError.missing }
            return local
        }
        let rev = LocalRevision.text(local.rev)
        return CouchResponse.json(.ok, bytes: DocumentJSON.render(id: id, rev: rev, body: local.body, deleted: false),
                                  headers: [("ETag", "\"\(rev)\"")])
    }

    /// `PUT`: the new revision is `0-{N+1}` for the supplied `0-N` (0 when absent); `"_deleted":true` deletes.
    private static func put(_ call: CouchCall, database: String, id: String) throws -> Reply {
        let json = try DocumentWriteRoute.databaseFirst(call, database) {
            try RequestBodies.json(call.request, limit: call.config.maxDocumentSize)
        }
        return try put(call, database: database, id: id, json: json)
    }

    /// Writes `json` as local document `id` (a `PUT`, or a `POST /{db}` whose `_id` is a `_local/` id).
    static func put(_ call: CouchCall, database: String, id: String, json: JSON) throws -> Reply {
        let input = try DocumentWriteRoute.databaseFirst(call, database) {
            var input = try LocalDocumentInput(json, maxDocIDLength: call.config.maxDocIdLength)
            if case .object(let object) = json, object["_rev"] == nil, let text = call.query.value("rev") {
                input.revNumber = try LocalRevision.number(parsing: text)
            }
            return input
        }
        if input.deleted { return try write(call, database: database, id: id, rev: 0, body: nil) }
        let body = JSON.object(input.body).serializedBytes()
        guard body.count <= call.config.maxDocumentSize else { throw CouchError.tooLarge }
        return try write(call, database: database, id: id, rev: LocalRevision.next(after: input.revNumber), body: body)
    }

    /// Stores (or, with no body, deletes) the document as a parked write. A deletion answers `0-0`.
    private static func write(_ call: CouchCall, database: String, id: String, rev: Int64, body: [UInt8]?) throws -> Reply {
        let parked = ParkedResponse(timeout: .seconds(120), awaitsCompletionOnShutdown: true) {
            call.finish(CouchResponse.error(CouchError(status: 503, error: "service_unavailable",
                                                       reason: "The database is busy; try again.")))
        }
        call.store.writeLocal(database: database, id: id, rev: rev, body: body) { result in
            let response: HTTPResponse
            switch result {
            case .success(true):
                var answer = JSONObject()
                answer["ok"] = .bool(true)
                answer["id"] = .string(id)
                answer["rev"] = .string(body == nil ? LocalRevision.deletedText : LocalRevision.text(rev))
                response = CouchResponse.json(body == nil ? .ok : .created, .object(answer))
            case .success(false):
                response = CouchResponse.error(.missing)
            case .failure(let error):
                response = CouchHandler.response(for: error, request: call.request, mount: call.mount, context: call.context)
            }
            parked.complete(call.finish(response))
        }
        return .parked(parked)
    }
}
