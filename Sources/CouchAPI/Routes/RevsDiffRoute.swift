import Core
import HTTP

/// `POST /{db}/_revs_diff` and `POST /{db}/_missing_revs` (spec §3.9): which of the given revisions the
/// database does not know. Known means a node of the document's tree, body or not; stemmed revisions are
/// unknown.
enum RevsDiffRoute {
    /// Which of the two answers.
    enum Form {
        /// `{"{id}":{"missing":[…],"possible_ancestors":[…]}}`.
        case revsDiff
        /// `{"missing_revs":{"{id}":[…]}}` (P2).
        case missingRevs
    }

    static func handle(_ call: CouchCall, database: String, form: Form) throws -> HTTPResponse {
        let requests = try DocumentWriteRoute.databaseFirst(call, database) { () throws -> [(String, [RevID])] in
            try RequestBodies.requireJSON(call.request)
            guard case .object(let body) = try RequestBodies.json(call.request, limit: call.config.jsonRequestLimit) else {
                throw CouchError.requestBodyNotObject
            }
            return try body.pairs.map { pair throws(CouchError) in (pair.key, try RevID.list(json: pair.value)) }
        }
        var answer = JSONObject()
        try call.store.read { reader in
            guard let db = try reader.database(named: database) else { throw CouchError.databaseMissing }
            for (id, revs) in requests {
                // `_local` documents have no tree: every revision named for one is unknown.
                let tree = DocumentID.isLocal(id) ? nil : try reader.document(databaseID: db.id, id: id)?.tree
                guard let diff = RevsDiff(tree: tree, requested: revs) else { continue }
                // The body cannot name an id twice (duplicate keys are refused), so each id is set once.
                answer[id] = form == .revsDiff ? diff.json : diff.missingJSON
            }
        }
        switch form {
        case .revsDiff: return CouchResponse.json(.ok, .object(answer))
        case .missingRevs: return CouchResponse.json(.ok, .object(JSONObject([("missing_revs", .object(answer))])))
        }
    }
}
