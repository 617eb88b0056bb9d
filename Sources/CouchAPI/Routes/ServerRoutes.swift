import Core
import HTTP

/// `GET /`, `/_up`, `/_all_dbs`, `/_uuids` (spec §3.1.1–3.1.4).
enum ServerRoutes {
    /// The CouchDB version Quartet answers as (§1: the compatibility target).
    static let couchVersion = "3.3.3"

    /// §3.1.1. `uuid` is the server's, fixed for the life of the data directory (PouchDB derives its
    /// replication ids from it).
    static func welcome(_ call: CouchCall) -> HTTPResponse {
        var vendor = JSONObject()
        vendor["name"] = .string("Quartet")
        vendor["version"] = .string(QuartetVersion.string)
        var body = JSONObject()
        body["couchdb"] = .string("Welcome")
        body["version"] = .string(couchVersion)
        body["uuid"] = .string(call.store.metadata.uuid)
        body["vendor"] = .object(vendor)
        body["features"] = .array([])
        return CouchResponse.json(.ok, .object(body))
    }

    static let upBody = Array("{\"status\":\"ok\",\"seeds\":{}}\n".utf8)

    /// §3.1.2.
    static func up() -> HTTPResponse { CouchResponse.json(.ok, bytes: upBody) }

    /// §3.1.3: names in byte order, the range, then `skip`, then `limit`.
    static func allDatabases(_ call: CouchCall) throws -> HTTPResponse {
        let q = call.query
        var query = DatabaseListQuery()
        query.descending = try q.boolean("descending") ?? false
        query.inclusiveEnd = try q.boolean("inclusive_end") ?? true
        query.limit = try q.nonNegativeInteger("limit")
        query.skip = try q.nonNegativeInteger("skip") ?? 0
        let start = try q.json("start_key") ?? q.json("startkey")
        let end = try q.json("end_key") ?? q.json("endkey")
        // Names are strings, and every other JSON value sorts before every string (as Erlang terms do):
        // a non-string start is no lower bound, a non-string end leaves nothing.
        if case .string(let text)? = start { query.startKey = text }
        if let end {
            guard case .string(let text) = end else {
                return CouchResponse.json(.ok, .array([]))
            }
            query.endKey = text
        }
        let names = try call.store.read { try $0.databaseNames(query) }
        return CouchResponse.json(.ok, .array(names.map(JSON.string)))
    }

    /// §3.1.4.
    static func uuids(_ call: CouchCall) throws -> HTTPResponse {
        var count = 1
        if let text = call.query.value("count") {
            guard let n = Int(text), n >= 0 else { throw CouchError.badRequest("count must be a positive integer") }
            guard n <= call.config.uuidsMaxCount else { throw CouchError.badRequest("count parameter too large") }
            count = n
        }
        var body = JSONObject()
        body["uuids"] = .array(call.context.ids.next(count).map(JSON.string))
        var response = CouchResponse.json(.ok, .object(body), headers: [("Pragma", "no-cache"),
                                                                         ("Expires", "Mon, 01 Jan 1990 00:00:00 GMT")])
        response.headers.set("Cache-Control", "must-revalidate, no-cache")
        return response
    }
}
