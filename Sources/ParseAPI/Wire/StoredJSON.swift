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

    /// Request bodies (spec §2.2): strict, duplicate keys rejected, nesting capped at 100 levels.
    static func requestOptions(maxBytes: Int) -> JSONParseOptions {
        var o = JSONParseOptions()
        o.maxDepth = 100
        o.maxBytes = maxBytes
        o.duplicateKeys = .reject
        return o
    }

    /// Parses a request body; a leading UTF-8 BOM is skipped (spec §2.2). Nil on any JSON error.
    static func parseRequest(_ bytes: [UInt8], maxBytes: Int) -> JSON? {
        var b = bytes
        if b.count >= 3, b[0] == 0xEF, b[1] == 0xBB, b[2] == 0xBF { b.removeFirst(3) }
        return try? JSONParser.parse(b, options: requestOptions(maxBytes: maxBytes))
    }
}
