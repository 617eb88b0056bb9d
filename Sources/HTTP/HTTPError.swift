/// Errors raised before a handler runs (parsing, limits, routing). Each maps to one response status;
/// a route group's error renderer turns them into that API's wire format.
public enum HTTPError: Error, Sendable, Equatable {
    /// Malformed request; the text says what was wrong (for logs, and safe to show to clients).
    case badRequest(String)
    /// No route matches the path.
    case notFound
    /// The path exists, but not for this method; `allowed` feeds the `Allow` header.
    case methodNotAllowed(allowed: [HTTPMethod])
    /// The head or body did not arrive in time.
    case requestTimeout
    /// The body is larger than the limit of the route or server.
    case payloadTooLarge
    /// The request-target is longer than `Limits.maxRequestTarget`.
    case uriTooLong
    /// The header section is larger than `Limits.maxHeaderBytes` or has more than `Limits.maxHeaderCount` fields.
    case headerFieldsTooLarge
    /// The body's media type is not accepted by the route.
    case unsupportedMediaType
    /// The requested byte range cannot be served.
    case rangeNotSatisfiable
    /// An `Expect` header other than `100-continue`.
    case expectationFailed
    /// The server is starting or draining.
    case serviceUnavailable

    /// The response status this error is answered with.
    public var status: HTTPStatus {
        switch self {
        case .badRequest: return .badRequest
        case .notFound: return .notFound
        case .methodNotAllowed: return .methodNotAllowed
        case .requestTimeout: return .requestTimeout
        case .payloadTooLarge: return .payloadTooLarge
        case .uriTooLong: return .uriTooLong
        case .headerFieldsTooLarge: return .headerFieldsTooLarge
        case .unsupportedMediaType: return .unsupportedMediaType
        case .rangeNotSatisfiable: return .rangeNotSatisfiable
        case .expectationFailed: return .expectationFailed
        case .serviceUnavailable: return .serviceUnavailable
        }
    }
}
