import Core

/// The parameters of a view-style request (`_all_docs` and friends, spec §3.6): the query string, and for
/// `POST` the members of the JSON body, where a parameter given in both places takes the query string's
/// value (`test/elixir/test/local_docs_test.exs`). Query values are text; body values are JSON and may be
/// given with their natural type (`"limit":2`, `"include_docs":true`) or as the same text.
struct ViewParameters {
    /// A parameter's value as it arrived.
    enum Value {
        case text(String)
        case json(JSON)
    }

    let query: QueryParameters
    let body: JSONObject?

    /// The value of `name`: the query string's, else the body's.
    func value(_ name: String) -> Value? {
        if let text = query.value(name) { return .text(text) }
        if let json = body?[name] { return .json(json) }
        return nil
    }

    /// Whether `name` was given at all.
    func has(_ name: String) -> Bool { value(name) != nil }

    /// A strict boolean: 400 `query_parse_error` "Invalid boolean parameter: \"{v}\"" for anything but
    /// `true`/`false` (any case in text).
    func boolean(_ name: String) throws(CouchError) -> Bool? {
        switch value(name) {
        case nil: return nil
        case .json(.bool(let flag))?: return flag
        case .json(.string(let text))?, .text(let text)?:
            switch text.lowercased() {
            case "true": return true
            case "false": return false
            default: throw .queryParseError("Invalid boolean parameter: \"\(text)\"")
            }
        case .json(let other)?: throw .queryParseError("Invalid boolean parameter: \"\(other.serialized())\"")
        }
    }

    /// An integer: 400 `query_parse_error` "Invalid value for integer: \"{v}\"" otherwise.
    func integer(_ name: String) throws(CouchError) -> Int? {
        switch value(name) {
        case nil: return nil
        case .json(.number(let number))?:
            guard number.isInteger, let value = number.int64Value.flatMap({ Int(exactly: $0) }) else {
                throw .queryParseError("Invalid value for integer: \"\(number.text)\"")
            }
            return value
        case .json(.string(let text))?, .text(let text)?:
            guard let value = Int(text) else { throw .queryParseError("Invalid value for integer: \"\(text)\"") }
            return value
        case .json(let other)?: throw .queryParseError("Invalid value for integer: \"\(other.serialized())\"")
        }
    }

    /// A non-negative integer (`limit`, `skip`): a negative one is "Invalid value for positive integer".
    func nonNegativeInteger(_ name: String) throws(CouchError) -> Int? {
        guard let number = try integer(name) else { return nil }
        guard number >= 0 else { throw .queryParseError("Invalid value for positive integer: \"\(number)\"") }
        return number
    }

    /// A JSON value: query text parsed with Couch's rules (400 "invalid UTF-8 JSON"), a body member as is.
    func json(_ name: String) throws(CouchError) -> JSON? {
        switch value(name) {
        case nil: return nil
        case .text(let text)?: return try CouchJSON.parse(text)
        case .json(let json)?: return json
        }
    }

    /// The first of `names` that was given, as JSON (`start_key` and its alias `startkey`, …).
    func json(anyOf names: [String]) throws(CouchError) -> JSON? {
        for name in names where has(name) { return try json(name) }
        return nil
    }
}
