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
        // An origin-form target (every target the server's parser hands on) is looked at once, on its bytes:
        // where the query starts, and whether the path has escapes or NUL bytes that decoding must see.
        var text = target
        let scan = text.withUTF8 { OriginFormScan($0) }
        guard let scan else { return try splitOtherForms(target, decodingPath: decodingPath, parsingQuery: parsingQuery) }
        guard let mark = scan.queryMark else {
            // Most targets are a plain path: nothing to split or decode. (A NUL byte counts only with an
            // escape here, as it always has: without one the path was taken as it is.)
            if !scan.pathHasEscape || !decodingPath {
                return Parts(rawPath: target, path: target, query: "", parameters: FormParameters())
            }
            guard let decoded = PercentDecoding.decodePath(Substring(target)) else {
                throw .badRequest("invalid percent-encoding in path")
            }
            return Parts(rawPath: target, path: decoded, query: "", parameters: FormParameters())
        }
        let utf8 = target.utf8
        let markIndex = utf8.index(utf8.startIndex, offsetBy: mark)
        let rawPath = String(target[..<markIndex])
        let query = target[utf8.index(after: markIndex)...]
        let path: String
        if (scan.pathHasEscape || scan.pathHasNUL) && decodingPath {
            guard let decoded = PercentDecoding.decodePath(Substring(rawPath)) else {
                throw .badRequest("invalid percent-encoding in path")
            }
            path = decoded
        } else {
            path = rawPath
        }
        let parameters = try queryParameters(query, parsing: parsingQuery)
        return Parts(rawPath: rawPath, path: path, query: String(query), parameters: parameters)
    }

    /// What `split` needs to know of an origin-form target, found in one pass over its bytes.
    struct OriginFormScan {
        /// The offset of the first "?", nil without a query.
        var queryMark: Int?
        /// The path holds "%": decoding may change it or refuse it.
        var pathHasEscape = false
        /// The path holds a NUL byte, which decoding refuses.
        var pathHasNUL = false

        /// Nil unless the target starts with "/".
        init?(_ bytes: UnsafeBufferPointer<UInt8>) {
            guard let first = bytes.first, first == UInt8(ascii: "/") else { return nil }
            var index = 1
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "?") {
                    queryMark = index
                    return
                }
                if byte == UInt8(ascii: "%") { pathHasEscape = true }
                if byte == 0 { pathHasNUL = true }
                index += 1
            }
        }
    }

    /// The query's parameters (empty when not `parsing`, after checking it all the same).
    private static func queryParameters(_ query: Substring, parsing: Bool) throws(HTTPError) -> FormParameters {
        guard !query.isEmpty else { return FormParameters() }
        do {
            if parsing { return try FormParameters.parse(query, plusIsSpace: true) }
            try FormParameters.validate(query, plusIsSpace: true)
            return FormParameters()
        } catch {
            throw .badRequest("invalid query string")
        }
    }

    /// `split` for a target that does not start with "/": absolute-form, "*", or anything else a caller
    /// built by hand.
    private static func splitOtherForms(_ target: String, decodingPath: Bool, parsingQuery: Bool) throws(HTTPError) -> Parts {
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
        let parameters = try queryParameters(query, parsing: parsingQuery)
        return Parts(rawPath: String(rawPath), path: decoded, query: String(query), parameters: parameters)
    }
}
