import HTTP

/// Which of Couch's two body limits a request gets (spec §4.9). Attachment bodies (a standalone attachment
/// `PUT`) and `multipart/related` document writes stream their attachments to blobs, so they may take up to
/// `couch.maxRequestSize`; every other body is JSON decoded whole into memory (`_bulk_docs`, documents with
/// inline base64 attachments, `_bulk_get`, `_revs_diff`, …) and may take `couch.maxJsonRequestSize`.
enum CouchBodyLimit {
    /// The limit from the request head, applied by the server before the body is read (see
    /// `BodyLimitRule`): a `Content-Length` above it is answered 413 `too_large` without reading the body,
    /// and a chunked body is cut off once it passes it. Costs nothing for bodies within the JSON limit; only
    /// a larger one has its path resolved, to tell an attachment from a JSON resource.
    static func limit(_ head: RequestHead, rawPath: String, mount: String, config: CouchConfig) -> Int {
        let json = config.jsonRequestLimit
        guard json < config.maxRequestSize else { return config.maxRequestSize }
        if case .contentLength(let length) = head.framing, length <= json { return config.maxRequestSize }
        if isMultipart(head.headers) { return config.maxRequestSize }
        guard let segments = try? PathSegments.split(CouchHandler.relativePath(rawPath, mount: mount),
                                                     plusIsSpace: config.decodePlusToSpace),
              let route = try? CouchRoute.resolve(segments) else { return json }
        return limit(route: route, headers: head.headers, config: config)
    }

    /// The limit of a routed request's (decoded) body: the gzip decoder's output limit, the same rule as
    /// the head's.
    static func limit(route: CouchRoute, headers: HTTPHeaders, config: CouchConfig) -> Int {
        if case .attachment = route { return config.maxRequestSize }
        return isMultipart(headers) ? config.maxRequestSize : config.jsonRequestLimit
    }

    /// `Content-Type: multipart/…` (a document `PUT` with `follows` attachments; any other resource refuses it).
    static func isMultipart(_ headers: HTTPHeaders) -> Bool {
        guard let value = headers["Content-Type"] else { return false }
        return RequestBodies.mediaType(of: value).hasPrefix("multipart/")
    }
}
