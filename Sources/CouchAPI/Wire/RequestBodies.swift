import Core
import HTTP

/// Reading request bodies under Couch's rules (spec §2.3).
enum RequestBodies {
    /// The media type of `Content-Type` (before any `;`), trimmed and lowercased; nil without the header.
    static func mediaType(_ request: HTTPRequest) -> String? {
        request.headers["Content-Type"].map(mediaType(of:))
    }

    /// The media type of a `Content-Type` value: the text before any `;`, without leading and trailing spaces
    /// and tabs, lowercased. Every Couch request with a body asks this at least twice (its body limit, the
    /// multipart check of a document `PUT`), so an ASCII value, which is every real one, is cut on its bytes;
    /// splitting and lowercasing `Character`s cost about 8,000 instructions a time. For ASCII text the two
    /// ways agree byte for byte (each byte is one `Character`, and only A–Z change case); any other value
    /// takes the `Character` way.
    static func mediaType(of value: String) -> String {
        var text = value
        let cut = text.withUTF8 { bytes -> String? in
            guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
            func isSpace(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
            var end = bytes.firstIndex(of: UInt8(ascii: ";")) ?? bytes.count
            var start = 0
            while start < end, isSpace(bytes[start]) { start += 1 }
            while end > start, isSpace(bytes[end - 1]) { end -= 1 }
            return String(unsafeUninitializedCapacity: end - start) { out in
                for index in 0..<(end - start) {
                    let byte = bytes[start + index]
                    out[index] = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
                }
                return end - start
            }
        }
        if let cut { return cut }
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
