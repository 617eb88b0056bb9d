import Core
import HTTP

/// A handler's answer before transport details (CORS, caching headers) are added.
struct ParseReply: Sendable {
    var status: Int
    var body: JSON
    /// The body already serialized (objects rendered straight from their stored text); when set, `body` is
    /// not used.
    var bodyBytes: [UInt8]?
    var headers: [(String, String)] = []
    /// Raw (non-JSON) responses such as file downloads bypass `body`.
    var raw: HTTPResponse?
    /// Set when the answer comes later, once a write job committed (ParseContext.writeParked).
    var parked: ParkedResponse?

    /// The body as a value, parsed back from `bodyBytes` when the answer was serialized already.
    var jsonBody: JSON {
        guard let bodyBytes else { return body }
        return (try? JSONParser.parse(bodyBytes, options: StoredJSON.options)) ?? .null
    }

    static func okJSON(_ body: JSON) -> ParseReply { ParseReply(status: 200, body: body) }
    static func ok(_ body: JSONObject) -> ParseReply { ParseReply(status: 200, body: .object(body)) }
    /// 200 with a body that is already JSON text.
    static func ok(serialized: [UInt8]) -> ParseReply {
        var r = ParseReply(status: 200, body: .null)
        r.bodyBytes = serialized
        return r
    }
    static func created(_ body: JSONObject, location: String?) -> ParseReply {
        var r = ParseReply(status: 201, body: .object(body))
        if let location { r.headers.append(("Location", location)) }
        return r
    }
    static let empty = ParseReply(status: 200, body: .object(JSONObject()))
    static func later(_ parked: ParkedResponse) -> ParseReply {
        var r = ParseReply(status: 200, body: .null)
        r.parked = parked
        return r
    }
}

/// Adds the transport conventions of spec §2.6-§2.7 to every answer.
struct ResponseWriter: Sendable {
    let allowOrigin: [String]
    let allowHeaders: String

    init(config: ParseConfig) {
        allowOrigin = config.allowOrigin
        var headers = ["X-Parse-Master-Key", "X-Parse-REST-API-Key", "X-Parse-Javascript-Key", "X-Parse-Application-Id",
                       "X-Parse-Client-Version", "X-Parse-Session-Token", "X-Requested-With", "X-Parse-Revocable-Session",
                       "X-Parse-Request-Id", "Content-Type", "Pragma", "Cache-Control", "X-Parse-Client-Key",
                       "X-Parse-Installation-Id", "X-Parse-Cloud-Context", "X-Parse-Windows-Key"]
        headers += config.allowHeaders
        allowHeaders = headers.joined(separator: ", ")
    }

    func cors(_ headers: inout HTTPHeaders, origin: String?) {
        var value = allowOrigin.first ?? "*"
        if let origin, allowOrigin.count > 1 || allowOrigin.first != "*", allowOrigin.contains(origin) { value = origin }
        headers.set("Access-Control-Allow-Origin", value)
        headers.set("Access-Control-Allow-Methods", "GET,PUT,POST,DELETE,OPTIONS")
        headers.set("Access-Control-Allow-Headers", allowHeaders)
        headers.set("Access-Control-Expose-Headers", "X-Parse-Job-Status-Id, X-Parse-Push-Status-Id")
    }

    func json(_ status: Int, _ body: JSON, origin: String?, extra: [(String, String)] = []) -> HTTPResponse {
        json(status, serialized: body.serializedBytes(), origin: origin, extra: extra)
    }

    /// An answer whose body is already JSON text.
    func json(_ status: Int, serialized body: [UInt8], origin: String?, extra: [(String, String)] = []) -> HTTPResponse {
        var headers = HTTPHeaders()
        headers.reserveCapacity(6 + extra.count)
        // Added, not set: the list starts empty, so there is nothing to replace (cors and extra do set).
        headers.add("Content-Type", "application/json; charset=utf-8")
        // Parse-Swift caches every response; no-store forces it to ask again (spec §2.7).
        headers.add("Cache-Control", "no-store")
        cors(&headers, origin: origin)
        for (k, v) in extra { headers.set(k, v) }
        return HTTPResponse(status: HTTPStatus(code: status), headers: headers, body: .bytes(body))
    }

    func reply(_ r: ParseReply, origin: String?) -> HTTPResponse {
        if var raw = r.raw {
            cors(&raw.headers, origin: origin)
            return raw
        }
        if let bytes = r.bodyBytes { return json(r.status, serialized: bytes, origin: origin, extra: r.headers) }
        return json(r.status, r.body, origin: origin, extra: r.headers)
    }

    func error(_ e: ParseError, origin: String?) -> HTTPResponse {
        json(e.status, Self.errorBody(e), origin: origin)
    }

    static func errorBody(_ e: ParseError) -> JSON {
        e.plainBody ? ["error": .string(e.message)] : ["code": .number(JSONNumber(e.code)), "error": .string(e.message)]
    }

    /// Early errors raised by the HTTP layer, in Parse's format.
    static func parseError(for error: HTTPError) -> ParseError {
        switch error {
        case .payloadTooLarge: return .entityTooLarge
        case .uriTooLong: return ParseError(107, "Request URI too long.", status: 414)
        case .headerFieldsTooLarge: return ParseError(107, "Request header fields too large.", status: 431)
        case .notFound, .methodNotAllowed: return ParseError(108, "Unknown route.", status: 404)
        case .requestTimeout: return ParseError(107, "Request timeout.", status: 408)
        case .unsupportedMediaType: return ParseError(107, "Unsupported media type.", status: 415)
        case .rangeNotSatisfiable: return ParseError(107, "Range not satisfiable.", status: 416)
        case .expectationFailed: return ParseError(107, "Expectation failed.", status: 417)
        case .serviceUnavailable: return ParseError(1, "Service unavailable.", status: 503)
        case .badRequest: return ParseError(107, "Bad request.")
        }
    }
}
