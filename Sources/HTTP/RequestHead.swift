/// The protocol versions the server speaks.
public enum HTTPVersion: Sendable, Hashable, CustomStringConvertible {
    /// HTTP/1.0: connections close after each response unless `Connection: keep-alive`.
    case http1_0
    /// HTTP/1.1: persistent connections unless `Connection: close`.
    case http1_1

    /// "HTTP/1.0" or "HTTP/1.1", as written on status lines.
    public var description: String {
        switch self {
        case .http1_0: return "HTTP/1.0"
        case .http1_1: return "HTTP/1.1"
        }
    }
}

/// What the head says about the body that follows.
public enum BodyFraming: Sendable, Equatable {
    /// No body (neither Content-Length nor Transfer-Encoding).
    case none
    /// Exactly this many bytes follow.
    case contentLength(Int)
    /// `Transfer-Encoding: chunked`; the parser removes the chunk framing.
    case chunked
}

/// A parsed request line and header section.
public struct RequestHead: Sendable, Equatable {
    /// The method token.
    public var method: HTTPMethod
    /// The request-target in origin form ("/path?query"), or "*" for `OPTIONS *`. An absolute-form target
    /// ("http://host/path") is rewritten to origin form and its authority replaces the Host header.
    public var target: String
    /// The protocol version of the request.
    public var version: HTTPVersion
    /// The header fields in the order received.
    public var headers: HTTPHeaders
    /// How the body is delimited.
    public var framing: BodyFraming
    /// True for `Expect: 100-continue` on an HTTP/1.1 request (other expectations are left to the server,
    /// which answers 417).
    public var expectsContinue: Bool
    /// Whether the connection may serve another request after this one, from the version and the
    /// `Connection` header.
    public var keepAlive: Bool

    /// Creates a head (the parser builds these; tests and the server may too).
    public init(method: HTTPMethod, target: String, version: HTTPVersion, headers: HTTPHeaders,
                framing: BodyFraming, expectsContinue: Bool, keepAlive: Bool) {
        self.method = method
        self.target = target
        self.version = version
        self.headers = headers
        self.framing = framing
        self.expectsContinue = expectsContinue
        self.keepAlive = keepAlive
    }
}

/// One step of an incoming request, as produced by `HTTPRequestParser`.
public enum ParseEvent: Sendable, Equatable {
    /// The head is complete.
    case head(RequestHead)
    /// A piece of the body (chunk framing already removed). Pieces follow the order of the bytes.
    case body([UInt8])
    /// The request is complete.
    case end
}
