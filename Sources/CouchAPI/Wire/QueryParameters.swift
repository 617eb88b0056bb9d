import Core
import HTTP

/// The query string of a Couch request, read with CouchDB's rules (spec §2.2): names case-sensitive, the
/// last occurrence of a repeated name wins, unknown names ignored.
struct QueryParameters {
    let form: FormParameters

    /// True when the query string has no parameter at all (the plain read's fast path).
    var isEmpty: Bool { form.isEmpty }

    /// The last value of `name`.
    func value(_ name: String) -> String? {
        form.pairs.last { $0.name == name }?.value
    }

    /// A document-read option (§3.3.1): `true` in any case means true, any other value false.
    func flag(_ name: String) -> Bool {
        guard let value = value(name) else { return false }
        return value.utf8.count == 4 && value.lowercased() == "true"
    }

    /// A strict boolean (`true`/`false` in any case); 400 `query_parse_error` "Invalid boolean parameter"
    /// otherwise. Nil when absent.
    func boolean(_ name: String) throws(CouchError) -> Bool? {
        guard let value = value(name) else { return nil }
        switch value.lowercased() {
        case "true": return true
        case "false": return false
        default: throw .queryParseError("Invalid boolean parameter: \"\(value)\"")
        }
    }

    /// A decimal integer; 400 `query_parse_error` "Invalid value for integer" otherwise. Nil when absent.
    func integer(_ name: String) throws(CouchError) -> Int? {
        guard let value = value(name) else { return nil }
        guard let number = Int(value) else { throw .queryParseError("Invalid value for integer: \"\(value)\"") }
        return number
    }

    /// A non-negative integer (`limit`, `skip`): a negative one is "Invalid value for positive integer".
    func nonNegativeInteger(_ name: String) throws(CouchError) -> Int? {
        guard let number = try integer(name) else { return nil }
        guard number >= 0 else {
            throw .queryParseError("Invalid value for positive integer: \"\(value(name) ?? "")\"")
        }
        return number
    }

    /// A JSON-valued parameter parsed with Couch's rules (§2.3): 400 "invalid UTF-8 JSON" when it does not
    /// parse. Nil when absent.
    func json(_ name: String) throws(CouchError) -> JSON? {
        guard let value = value(name) else { return nil }
        return try CouchJSON.parse(value)
    }
}

extension CouchError {
    /// 400 `query_parse_error` (§2.2).
    static func queryParseError(_ reason: String) -> CouchError {
        CouchError(status: 400, error: "query_parse_error", reason: reason)
    }
}
