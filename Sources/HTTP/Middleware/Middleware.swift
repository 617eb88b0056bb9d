/// Code a route group runs for every request routed to one of its handlers, before the handler: it may
/// adjust the request, answer it itself (return a response), or refuse it (throw; the group's error
/// renderer renders the error, `RequestRefused` included). Middleware runs in the order the group lists
/// it, on the thread the handler would run on, and only for routed requests (not for 404, 405 or
/// preflights the server answers itself). A group without middleware pays one test of a stored flag.
///
/// For checks that need what a handler learns first (an API's credentials), a handler may also call the
/// same pieces itself (`RateLimiter.check`, `ClientAddressResolver`): the mechanism lives here either way.
public struct Middleware: Sendable {
    /// One step: returns nil to go on, or the response that answers the request.
    public typealias Body = @Sendable (inout HTTPRequest) throws -> HTTPResponse?

    let body: Body

    /// Middleware running `body`.
    public init(_ body: @escaping Body) {
        self.body = body
    }

    /// Runs `steps` in order until one answers; nil when every step let the request through.
    static func run(_ steps: [Middleware], on request: inout HTTPRequest) throws -> HTTPResponse? {
        for step in steps {
            if let response = try step.body(&request) { return response }
        }
        return nil
    }
}

/// A request refused before its handler ran (by middleware such as `Middleware.rateLimit`). Error
/// renderers map it to their API's format; the plain rendering is `status` with `{"error":"<message>"}`,
/// and every rendering gets `Retry-After` when `retryAfterSeconds` is set and the renderer set none.
public struct RequestRefused: Error, Sendable, Equatable {
    /// The status to answer with (429, 403, ...).
    public var status: HTTPStatus
    /// A message safe to show the client.
    public var message: String
    /// Seconds after which a retry may succeed, for `Retry-After`.
    public var retryAfterSeconds: Int?

    /// A refusal with `status` and `message`.
    public init(status: HTTPStatus, message: String, retryAfterSeconds: Int? = nil) {
        self.status = status
        self.message = message
        self.retryAfterSeconds = retryAfterSeconds
    }

    /// The 429 for a request over a rate limit, with the rule's message.
    public init(_ exceeded: RateLimitExceeded) {
        self.init(status: .tooManyRequests, message: exceeded.rule.message,
                  retryAfterSeconds: exceeded.retryAfterSeconds)
    }
}
