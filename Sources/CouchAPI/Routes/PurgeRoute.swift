import Core
import HTTP

/// `POST /{db}/_purge` (spec §3.12, P2, db admin): forgets leaf revisions as if they had never been written.
enum PurgeRoute {
    static func handle(_ call: CouchCall, database: String) throws -> Reply {
        let requests = try DocumentWriteRoute.databaseFirst(call, database) { () throws -> [PurgeRequest] in
            try RequestBodies.requireJSON(call.request)
            guard case .object(let body) = try RequestBodies.json(call.request, limit: call.config.jsonRequestLimit) else {
                throw CouchError.requestBodyNotObject
            }
            guard body.count <= call.config.maxPurgeDocuments else {
                throw CouchError.badRequest("Exceeded maximum number of documents.")
            }
            var total = 0
            var requests: [PurgeRequest] = []
            requests.reserveCapacity(body.count)
            for (id, value) in body {
                let revs = try RevID.list(json: value)
                total += revs.count
                guard total <= call.config.maxPurgeRevisions else {
                    throw CouchError.badRequest("Exceeded maximum number of revisions.")
                }
                requests.append(PurgeRequest(id: id, revs: revs))
            }
            return requests
        }
        let parked = ParkedResponse(timeout: .seconds(120), awaitsCompletionOnShutdown: true) {
            call.finish(CouchResponse.error(CouchError(status: 503, error: "service_unavailable",
                                                       reason: "The database is busy; try again.")))
        }
        call.store.purge(database: database, requests: requests) { result in
            let response: HTTPResponse
            switch result {
            case .success(let outcome):
                var purged = JSONObject()
                for entry in outcome.purged { purged[entry.id] = .array(entry.revs.map(\.json)) }
                var body = JSONObject()
                body["purge_seq"] = .number(JSONNumber(outcome.purgeSeq))
                body["purged"] = .object(purged)
                response = CouchResponse.json(.created, .object(body))
            case .failure(let error):
                response = CouchHandler.response(for: error, request: call.request, mount: call.mount, context: call.context)
            }
            parked.complete(call.finish(response))
        }
        return .parked(parked)
    }
}
