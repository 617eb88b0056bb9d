import HTTP
import Core

/// `await` (§6.9): a long poll that answers at once when something holds, else parks (holding no thread)
/// until a commit on a watched handle or the user's list makes it hold, or answers `{}` at the time-out.
enum AwaitRoute {
    /// Most cursors in one poll.
    static let maxCursors = 1000

    static func register(on group: RouteGroup, _ context: EndpointContext) {
        context.endpoint(group, "await") { call in
            let watch = try parse(call.params, maxDepth: context.config.maxJsonDepth)
            guard let reply = context.awaits.wait(key: String(call.user.uid),
                                                  cursors: DatastoreTopics.cursors(for: watch, uid: call.user.uid),
                                                  payload: AwaitRequest(user: call.user, watch: watch),
                                                  timeout: .seconds(context.config.awaitTimeoutSeconds),
                                                  onTimeout: { WireResponse.empty }) else {
                throw DatastoreAPIError.unavailable("Too many concurrent await requests")
            }
            return reply
        }
    }

    /// Validates `list_datastores={"token": str}` and `get_deltas={"cursors": {handle: int}}`.
    static func parse(_ params: RequestParameters, maxDepth: Int) throws -> AwaitWatch {
        var token: String?
        if let list = try params.json("list_datastores", maxDepth: maxDepth) {
            guard case .object(let object) = list, case .string(let t)? = object["token"] else {
                throw DatastoreAPIError.badRequest("list_datastores must be an object with a string 'token'")
            }
            token = t
        }
        var cursors: [(handle: String, rev: Int64)] = []
        if let deltas = try params.json("get_deltas", maxDepth: maxDepth) {
            guard case .object(let object) = deltas, case .object(let map)? = object["cursors"] else {
                throw DatastoreAPIError.badRequest("get_deltas must be an object with an object 'cursors'")
            }
            guard map.count <= maxCursors else {
                throw DatastoreAPIError.badRequest("Too many cursors (at most \(maxCursors))")
            }
            for (handle, value) in map {
                guard case .number(let n) = value, let rev = Identifiers.parseCanonicalRev(n.text) else {
                    throw DatastoreAPIError.badRequest("Cursor for handle \(Quote.echo(handle)) must be a non-negative integer")
                }
                cursors.append((handle, rev))
            }
        }
        return AwaitWatch(listToken: token, cursors: cursors)
    }
}
