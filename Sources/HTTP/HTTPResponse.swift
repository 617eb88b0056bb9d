import Core

/// A response a handler returns: status, headers and body. The server adds `Date`, `Server`,
/// `Content-Length` or `Transfer-Encoding`, `Connection` and `X-Request-Id`.
public struct HTTPResponse: Sendable {
    /// The status line's code and reason.
    public var status: HTTPStatus
    /// Headers set by the handler, in order.
    public var headers: HTTPHeaders
    /// The body.
    public var body: ResponseBody

    /// Creates a response.
    public init(status: HTTPStatus = .ok, headers: HTTPHeaders = [:], body: ResponseBody = .empty) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A JSON response from serialized JSON text, with `Content-Type: application/json; charset=utf-8`.
    public static func json(_ status: HTTPStatus = .ok, _ jsonText: String) -> HTTPResponse {
        json(status, bytes: Array(jsonText.utf8))
    }

    /// A JSON response from serialized JSON bytes, with `Content-Type: application/json; charset=utf-8`.
    public static func json(_ status: HTTPStatus = .ok, bytes: [UInt8]) -> HTTPResponse {
        var headers = HTTPHeaders()
        headers.add("Content-Type", "application/json; charset=utf-8")
        return HTTPResponse(status: status, headers: headers, body: .bytes(bytes))
    }

    /// A plain-text response with `Content-Type: text/plain; charset=utf-8`.
    public static func text(_ status: HTTPStatus = .ok, _ text: String) -> HTTPResponse {
        var headers = HTTPHeaders()
        headers.add("Content-Type", "text/plain; charset=utf-8")
        return HTTPResponse(status: status, headers: headers, body: .bytes(Array(text.utf8)))
    }

    /// The plain JSON error body `{"error":"..."}` used where no group renderer applies.
    public static func plainError(_ status: HTTPStatus, _ message: String) -> HTTPResponse {
        // Backspace and form feed as `\u0008`/`\u000c`, as these bodies have always escaped them.
        var writer = JSONWriter(controlEscapes: .namedWhitespace)
        writer.raw(UInt8(ascii: "{"))
        writer.key("error", first: true)
        writer.string(message)
        writer.raw(UInt8(ascii: "}"))
        return json(status, bytes: writer.bytes)
    }
}
