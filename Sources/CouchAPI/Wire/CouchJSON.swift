import Core

/// Couch's JSON rules (spec §2.3, §2.4, §4.1) on top of Core's parser and serializer.
public enum CouchJSON {
    /// Deepest nesting accepted (§4.9): a body nested 512 levels parses, 513 is refused.
    public static let maxDepth = 512

    /// Parser options for every Couch request body and JSON-valued query parameter: duplicate keys
    /// refused (the CVE-2017-12635 class of attacks lived in the gap between two parsers' choices), no
    /// byte order mark, 512 levels, and decimal literals that overflow binary64 refused because the
    /// revision id (§4.5) needs their binary64 value. Everything else Core's strict parser already
    /// refuses (NaN, leading zeros, lone surrogates, invalid UTF-8, trailing data).
    public static func parseOptions(maxBytes: Int) -> JSONParseOptions {
        JSONParseOptions(maxDepth: maxDepth, maxBytes: maxBytes, duplicateKeys: .reject,
                         allowsByteOrderMark: false, rejectsDecimalOverflow: true)
    }

    /// Parses a request body under Couch's rules and the server's value-count and string-size limits
    /// (`JSONRequestLimits`; beyond them 413 `too_large`, as for a body over `maxRequestSize`).
    public static func parseRequest(_ bytes: [UInt8]) throws(CouchError) -> JSON {
        var options = parseOptions(maxBytes: .max)
        JSONRequestLimits.apply(to: &options)
        do {
            return try JSONParser.parse(bytes, options: options)
        } catch {
            throw Self.error(for: error)
        }
    }

    /// Parses `bytes` under Couch's rules; failures become CouchDB's errors (see `error(for:)`).
    public static func parse(_ bytes: [UInt8], maxBytes: Int = .max) throws(CouchError) -> JSON {
        do {
            return try JSONParser.parse(bytes, options: parseOptions(maxBytes: maxBytes))
        } catch {
            throw Self.error(for: error)
        }
    }

    /// Parses a JSON-valued query parameter (`open_revs`, `atts_since`, `keys`, …) already percent-decoded.
    public static func parse(_ text: String, maxBytes: Int = .max) throws(CouchError) -> JSON {
        do {
            return try JSONParser.parse(text, options: parseOptions(maxBytes: maxBytes))
        } catch {
            throw Self.error(for: error)
        }
    }

    /// The Couch error for a parse failure. CouchDB answers every malformed body with the one text
    /// "invalid UTF-8 JSON" (an empty body included); a repeated key has its own text (Decision §2.3);
    /// a body past the size limit is 413 (§4.9).
    public static func error(for error: JSONError) -> CouchError {
        switch error {
        case .duplicateKey: return .duplicateKey
        case .tooLarge, .tooManyValues, .stringTooLong: return .tooLarge
        case .syntax, .tooDeep, .invalidUTF8, .emptyInput: return .invalidJSON
        }
    }

    /// A response body: compact JSON in stored key order, numbers as their literal text, minimal string
    /// escaping (`/` and non-ASCII raw), followed by one `\n` (§2.4).
    public static func render(_ value: JSON) -> [UInt8] {
        var bytes = value.serializedBytes()
        bytes.append(UInt8(ascii: "\n"))
        return bytes
    }
}
