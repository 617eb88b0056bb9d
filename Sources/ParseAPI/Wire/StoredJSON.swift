import Core

/// JSON parsing rules for request bodies and for text read back from the database.
enum StoredJSON {
    /// Stored text was produced by this server; it is parsed leniently and deeper than requests may go.
    static let options: JSONParseOptions = {
        var o = JSONParseOptions()
        o.maxDepth = 512
        o.maxBytes = 64 << 20
        o.duplicateKeys = .lastWins
        return o
    }()

    /// Request bodies (spec §2.2): strict, duplicate keys rejected, nesting capped at 100 levels, a
    /// leading UTF-8 BOM skipped, and the server's value-count and string-size limits applied while parsing.
    static func requestOptions(maxBytes: Int) -> JSONParseOptions {
        var o = JSONParseOptions()
        o.maxDepth = 100
        o.maxBytes = maxBytes
        o.duplicateKeys = .reject
        // Skipped by the parser rather than by copying the body without it.
        o.allowsByteOrderMark = true
        JSONRequestLimits.apply(to: &o)
        return o
    }

    /// Parses a request body; a leading UTF-8 BOM is skipped (spec §2.2). Nil on any JSON error.
    static func parseRequest(_ bytes: [UInt8], maxBytes: Int) -> JSON? {
        try? parseRequestBody(bytes, maxBytes: maxBytes)
    }

    /// Parses a request body, with the reason for a refusal.
    static func parseRequestBody(_ bytes: [UInt8], maxBytes: Int) throws(JSONError) -> JSON {
        try JSONParser.parse(bytes, options: requestOptions(maxBytes: maxBytes))
    }
}
