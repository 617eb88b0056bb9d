import Core
import HTTP

/// Reading request bodies under Couch's rules (spec §2.3).
enum RequestBodies {
    /// The media type of `Content-Type` (before any `;`), trimmed and lowercased; nil without the header.
    static func mediaType(_ request: HTTPRequest) -> String? {
        guard let value = request.headers["Content-Type"] else { return nil }
        let type = value.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        return String(type).trimmingSpaces().lowercased()
    }

    /// 415 "Content-Type must be application/json" unless the body is declared JSON. `allowsMissing`: an
    /// empty body without the header passes (`_ensure_full_commit`, `_compact`; Decision §2.3).
    static func requireJSON(_ request: HTTPRequest, allowsMissing: Bool = false) throws(CouchError) {
        let type = mediaType(request)
        if type == "application/json" { return }
        if allowsMissing, type == nil, request.body.count == 0 { return }
        throw .badContentType("Content-Type must be application/json")
    }

    /// The body bytes, at most `limit` (413 `too_large` beyond). gzip bodies arrive here already decoded
    /// (`GzipRequestBody`, before dispatch); any other `Content-Encoding` but identity is refused (415).
    static func read(_ request: HTTPRequest, limit: Int) throws -> [UInt8] {
        if let encoding = request.headers["Content-Encoding"]?.trimmingSpaces(), !encoding.isEmpty,
           encoding.lowercased() != "identity" {
            throw CouchError.badContentType("\(encoding) is not a supported content encoding.")
        }
        return try request.body.readAll(limit: limit)
    }

    /// The body parsed as JSON with Couch's rules (an empty body is "invalid UTF-8 JSON").
    static func json(_ request: HTTPRequest, limit: Int) throws -> JSON {
        try CouchJSON.parseRequest(try read(request, limit: limit))
    }
}
