import HTTP

/// One signed (or deliberately unsigned) request as an endpoint handler sees it.
public struct BackbeamCall: Sendable {
    /// The HTTP request (headers, body, remote address).
    public var request: HTTPRequest
    /// The addressed project.
    public var project: Project
    /// The addressed environment.
    public var env: BackbeamEnvironment
    /// Its data namespace.
    public var space: SpaceID
    /// The decoded, merged parameters (§2.1, §2.2).
    public var parameters: BackbeamParameters
    /// The effective method (`_method` applied).
    public var method: String
    /// The `:name` segments of the matched route, decoded.
    public var pathParameters: PathParameters
    /// The parts of a multipart body that carry files (their content stays in `request.body`'s parts).
    public var fileParts: [MultipartPart]
    /// The id of the user the request's `auth` identifies (nil without a valid one).
    public var authUser: String?
    /// The server clock at the start of the request (ms).
    public var now: Int64

    /// A path parameter (always present for the route's own parameters).
    public func path(_ name: String) -> String { pathParameters[name] ?? "" }
}

/// An endpoint's answer: the HTTP status and the JSON body (wrapped for JSONP by the dispatcher), or a
/// whole HTTP response (file downloads, §5.3.3).
public struct BackbeamReply: Sendable {
    /// The HTTP status (200, or 201 on creation; errors are thrown as `BackbeamError`).
    public var status: Int
    /// The JSON body.
    public var body: [UInt8]
    /// A response sent as it is (plus CORS) instead of a JSON body.
    public var response: HTTPResponse?

    /// A reply.
    public init(status: Int = 200, body: [UInt8]) {
        self.status = status
        self.body = body
    }

    /// A reply that is a whole response.
    public init(response: HTTPResponse) {
        self.status = response.status.code
        self.body = []
        self.response = response
    }
}
