/// Cross-origin rules of a route group. Applied to every response of the group that answers a request
/// with an `Origin` header, and to automatic `OPTIONS` preflights.
public struct CORSPolicy: Sendable {
    /// Origins allowed to read responses; `"*"` allows any.
    public var allowedOrigins: [String] = ["*"]
    /// Whether credentials (cookies, Authorization) are allowed. With credentials the origin is echoed,
    /// never `*`, because browsers reject a wildcard on credentialed requests.
    public var allowCredentials = false
    /// Request headers a preflight allows; empty echoes the headers the browser asked for.
    public var allowedHeaders: [String] = []
    /// Response headers scripts may read (`Access-Control-Expose-Headers`).
    public var exposedHeaders: [String] = []
    /// How long a browser may cache a preflight, in seconds.
    public var maxAge: Int = 600
    /// Methods a preflight allows; empty allows the methods registered for the path.
    public var allowedMethods: [HTTPMethod] = []

    /// Creates a policy; the defaults allow any origin without credentials.
    public init(allowedOrigins: [String] = ["*"], allowCredentials: Bool = false, allowedHeaders: [String] = [],
                exposedHeaders: [String] = [], maxAge: Int = 600, allowedMethods: [HTTPMethod] = []) {
        self.allowedOrigins = allowedOrigins
        self.allowCredentials = allowCredentials
        self.allowedHeaders = allowedHeaders
        self.exposedHeaders = exposedHeaders
        self.maxAge = maxAge
        self.allowedMethods = allowedMethods
    }

    /// The `Access-Control-Allow-Origin` value for `origin`, or nil when that origin is not allowed.
    public func allowOriginValue(for origin: String) -> String? {
        let any = allowedOrigins.contains("*")
        if any && !allowCredentials { return "*" }
        if any || allowedOrigins.contains(origin) { return origin }
        return nil
    }

    /// Adds the CORS headers of a simple (non-preflight) response for a request from `origin`.
    public func apply(to headers: inout HTTPHeaders, origin: String?) {
        guard let origin, let allow = allowOriginValue(for: origin) else { return }
        headers.set("Access-Control-Allow-Origin", allow)
        if allow != "*" { headers.add("Vary", "Origin") }
        if allowCredentials { headers.set("Access-Control-Allow-Credentials", "true") }
        if !exposedHeaders.isEmpty {
            headers.set("Access-Control-Expose-Headers", exposedHeaders.joined(separator: ", "))
        }
    }

    /// The answer to a preflight `OPTIONS` request for a path that has `methods` registered.
    public func preflightResponse(for request: HTTPRequest, methods: [HTTPMethod]) -> HTTPResponse {
        var headers = HTTPHeaders()
        let origin = request.headers["Origin"]
        if let origin, let allow = allowOriginValue(for: origin) {
            headers.add("Access-Control-Allow-Origin", allow)
            if allow != "*" { headers.add("Vary", "Origin") }
            if allowCredentials { headers.add("Access-Control-Allow-Credentials", "true") }
            let allowed = allowedMethods.isEmpty ? methods : allowedMethods
            headers.add("Access-Control-Allow-Methods", allowed.map(\.rawValue).joined(separator: ", "))
            if !allowedHeaders.isEmpty {
                headers.add("Access-Control-Allow-Headers", allowedHeaders.joined(separator: ", "))
            } else if let asked = request.headers["Access-Control-Request-Headers"], !asked.isEmpty {
                headers.add("Access-Control-Allow-Headers", asked)
                headers.add("Vary", "Access-Control-Request-Headers")
            }
            headers.add("Access-Control-Max-Age", String(maxAge))
        }
        headers.add("Allow", methods.map(\.rawValue).joined(separator: ", "))
        return HTTPResponse(status: .noContent, headers: headers)
    }
}
