/// One parsed HTTP request as a handler sees it: the head, the body (in memory or spooled to a file) and
/// what the router learned while matching it.
public struct HTTPRequest: Sendable {
    /// The request method.
    public var method: HTTPMethod
    /// The raw request-target exactly as received.
    public var target: String
    /// The percent-decoded path, without the query; the raw path itself for route groups that decode paths
    /// themselves (see `Router.group(_:host:limits:cors:errorRenderer:decodesPath:)`).
    public var path: String
    /// The path as received, still percent-encoded.
    public var rawPath: String
    /// The raw query string without the leading "?" ("" when there is none).
    public var query: String
    /// The parsed query string (`+` read as a space).
    public var queryParameters: FormParameters
    /// HTTP/1.0 or HTTP/1.1.
    public var version: HTTPVersion
    /// The request headers, in order, repeated names kept.
    public var headers: HTTPHeaders
    /// The request body.
    public var body: RequestBody
    /// The peer's IP address as text ("127.0.0.1", "::1").
    public var remoteAddress: String
    /// Whether the request arrived over TLS.
    public var isTLS: Bool
    /// The client's sane `X-Request-Id`, or one the server generated; echoed in the response.
    public var requestID: String
    /// The prefix of the route group that matched ("/parse", "" for the root group).
    public var mountPath: String
    /// The pattern of the matched route, relative to the group ("/classes/:className").
    public var routePattern: String
    /// The `:name` captures of the matched route, percent-decoded.
    public var pathParameters: [String: String]
    /// The rest of the path matched by a trailing `*`, percent-decoded; nil when the route has none.
    public var wildcard: String?
    /// The `{name}` captures of the matched host pattern.
    public var hostParameters: [String: String]
    /// When the server finished reading the request head.
    public var receivedAt: ContinuousClock.Instant

    /// Builds a request from a method and a raw target, splitting and decoding path and query the way the
    /// server does. Throws `HTTPError.badRequest` for an invalid percent-encoding in either part.
    /// `receivedAt` defaults to now; the server passes the moment it finished reading the head.
    /// `decodingPath` false leaves `path` equal to `rawPath`, undecoded and unchecked, for an API that
    /// decodes each segment itself and answers bad escapes in its own words. `parsingQuery` false checks the
    /// query string alike but leaves `queryParameters` empty, for an API that reads `query` itself.
    public init(method: HTTPMethod, target: String, version: HTTPVersion = .http1_1, headers: HTTPHeaders = [:],
                body: RequestBody = .empty, remoteAddress: String = "127.0.0.1", isTLS: Bool = false,
                requestID: String = "", receivedAt: ContinuousClock.Instant = .now,
                decodingPath: Bool = true, parsingQuery: Bool = true) throws(HTTPError) {
        let parts = try RequestTarget.split(target, decodingPath: decodingPath, parsingQuery: parsingQuery)
        self.method = method
        self.target = target
        self.path = parts.path
        self.rawPath = parts.rawPath
        self.query = parts.query
        self.queryParameters = parts.parameters
        self.version = version
        self.headers = headers
        self.body = body
        self.remoteAddress = remoteAddress
        self.isTLS = isTLS
        self.requestID = requestID
        self.mountPath = ""
        self.routePattern = ""
        self.pathParameters = [:]
        self.wildcard = nil
        self.hostParameters = [:]
        self.receivedAt = receivedAt
    }

    /// The value of path parameter `name`, or nil.
    public func parameter(_ name: String) -> String? { pathParameters[name] }
}

/// Splits a request-target into its decoded path and its query.
enum RequestTarget {
    struct Parts {
        var rawPath: String
        var path: String
        var query: String
        var parameters: FormParameters
    }

    /// Accepts origin-form ("/a?b") and, for robustness, absolute-form ("http://host/a?b") targets.
    static func split(_ target: String, decodingPath: Bool = true, parsingQuery: Bool = true) throws(HTTPError) -> Parts {
        // Most targets are a plain origin-form path: nothing to split or decode.
        if isPlainPath(target) {
            return Parts(rawPath: target, path: target, query: "", parameters: FormParameters())
        }
        var rest = Substring(target)
        if !rest.hasPrefix("/"), let scheme = rest.range(of: "://") {
            // absolute-form: drop scheme and authority, keep the path (RFC 9112 section 3.2.2).
            let afterAuthority = rest[scheme.upperBound...]
            if let slash = afterAuthority.firstIndex(where: { $0 == "/" || $0 == "?" }) {
                rest = afterAuthority[slash...]
            } else {
                rest = "/"
            }
        }
        let rawPath: Substring
        let query: Substring
        // Searched on UTF-8 bytes: Substring.firstIndex(of:) walks Characters, a cost per byte of the path.
        if let mark = rest.utf8.firstIndex(of: UInt8(ascii: "?")) {
            rawPath = rest[..<mark]
            query = rest[rest.utf8.index(after: mark)...]
        } else {
            rawPath = rest
            query = ""
        }
        if rawPath.isEmpty && target != "*" { throw .badRequest("empty path") }
        guard let decoded = decodingPath ? PercentDecoding.decodePath(rawPath) : String(rawPath) else {
            throw .badRequest("invalid percent-encoding in path")
        }
        var parameters = FormParameters()
        if !query.isEmpty {
            do {
                if parsingQuery {
                    parameters = try FormParameters.parse(query, plusIsSpace: true)
                } else {
                    try FormParameters.validate(query, plusIsSpace: true)
                }
            } catch {
                throw .badRequest("invalid query string")
            }
        }
        return Parts(rawPath: String(rawPath), path: decoded, query: String(query), parameters: parameters)
    }

    /// Whether `target` starts with "/" and holds no "?" and no "%" (its raw and decoded paths are itself).
    private static func isPlainPath(_ target: String) -> Bool {
        var utf8 = target.utf8.makeIterator()
        guard utf8.next() == UInt8(ascii: "/") else { return false }
        while let byte = utf8.next() {
            if byte == UInt8(ascii: "?") || byte == UInt8(ascii: "%") { return false }
        }
        return true
    }
}
