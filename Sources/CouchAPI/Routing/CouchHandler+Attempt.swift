import HTTP

extension CouchHandler {
    /// The I/O-thread attempt of a route group whose Couch paths start after `mount` (see `attempt`).
    static func attempt(mount: String, context: CouchContext) -> IOThreadAttempt {
        { request in attempt(request, mount: mount, context: context) }
    }

    /// Answers the server admin's plain `GET`/`HEAD` of a small live document on the I/O thread that read
    /// the request, when the credentials are known without storage or hashing and a read connection is free
    /// at once: the work of `handle` for that request, minus the hand-off to a worker. Nil for every other
    /// request and on any error; `handle` then answers it on a worker (and answers the errors).
    ///
    /// Only the server admin's reads are taken: every other caller's access depends on per-database rules
    /// that are checked on the worker path.
    static func attempt(_ request: HTTPRequest, mount: String, context: CouchContext) -> HTTPResponse? {
        guard request.method == .get || request.method == .head, request.query.isEmpty,
              let segments = try? PathSegments.split(relativePath(request.rawPath, mount: mount),
                                                     plusIsSpace: context.config.decodePlusToSpace),
              case .document(let database, let id)? = try? CouchRoute.resolve(segments) else { return nil }
        let (cookie, authorization) = credentialHeaders(request.headers)
        guard let credentials = context.authenticator.cachedAdmin(cookie: cookie, authorization: authorization,
                                                                   clientAddress: request.remoteAddress),
              credentials.isServerAdmin else { return nil }
        // A session cookie due for renewal gets a new one from `finish`, which may read storage.
        if case .cookie(let issuedAt) = credentials.method, context.authenticator.needsRefresh(issuedAt: issuedAt) {
            return nil
        }
        let call = CouchCall(request: request, method: request.method, route: .document(database, id: id),
                             credentials: credentials, query: QueryParameters(form: request.queryParameters), context: context,
                             mount: mount)
        guard let response = DocumentReadRoute.attempt(call, database: database, id: id) else { return nil }
        return call.finish(response)
    }
}
