import Core

/// The non-`where` parameters of a query (spec §7.1, §7.9, §7.10), validated.
struct QueryOptions: Sendable {
    var whereClause = JSONObject()
    var limit: Int
    var skip = 0
    var order: [String] = []
    var count = false
    var keys: [String]?
    var excludeKeys: [String] = []
    var include: [String] = []
    var includeAll = false
    var redirectClassNameForKey: String?

    static let ignored: Set<String> = ["explain", "hint", "comment", "readPreference", "includeReadPreference",
                                       "subqueryReadPreference"]
    static let known: Set<String> = ["where", "limit", "skip", "order", "count", "keys", "excludeKeys", "include",
                                     "includeAll", "redirectClassNameForKey"]

    init(defaultLimit: Int) { limit = defaultLimit }

    /// Parses query parameters; unknown names answer 102 "Invalid parameter for query: <name>".
    static func parse(_ params: JSONObject, config: ParseConfig) throws -> QueryOptions {
        var q = QueryOptions(defaultLimit: config.defaultLimit)
        for (name, value) in params {
            if ignored.contains(name) { continue }
            guard known.contains(name) else { throw ParseError(102, "Invalid parameter for query: \(name)") }
            switch name {
            case "where":
                q.whereClause = try parseWhere(value)
            case "limit":
                q.limit = min(try nonNegative(value, "limit"), config.maxLimit)
            case "skip":
                q.skip = try nonNegative(value, "skip")
            case "order":
                q.order = try list(value)
                for entry in q.order {
                    let key = entry.hasPrefix("-") ? String(entry.dropFirst()) : entry
                    guard key == "$score" || isKeyPath(key) else { throw ParseError(105, "Invalid key name: \(entry)") }
                }
            case "count":
                q.count = truthy(value)
            case "keys":
                let k = try list(value)
                for entry in k where entry != "$score" && !isKeyPath(entry) {
                    throw ParseError(105, "Invalid key name: \(entry)")
                }
                q.keys = k
            case "excludeKeys":
                q.excludeKeys = try list(value)
            case "include":
                q.include = try list(value)
                if q.include.contains("*") { q.includeAll = true }
            case "includeAll":
                q.includeAll = truthy(value)
            case "redirectClassNameForKey":
                q.redirectClassNameForKey = value.stringValue
            default:
                break
            }
        }
        if q.include.count > 50 || q.include.contains(where: { $0.split(separator: ".").count > 10 }) {
            throw ParseError(102, "Too many include paths.")
        }
        return q
    }

    static func parseWhere(_ value: JSON) throws -> JSONObject {
        switch value {
        case .object(let o): return o
        case .string(let s):
            // Deep nesting is allowed here so the query compiler can answer it with its own 102 (spec §7.11);
            // the parser keeps an explicit stack, so depth costs no recursion.
            var options = StoredJSON.requestOptions(maxBytes: 16 << 20)
            options.maxDepth = 10_000
            guard let parsed = try? JSONParser.parse(s, options: options) else {
                throw ParseError(107, "Invalid JSON in where.")
            }
            guard let o = parsed.objectValue else { throw ParseError(102, "where must be a JSON object.") }
            return o
        case .null: return JSONObject()
        default: throw ParseError(102, "where must be a JSON object.")
        }
    }

    static func nonNegative(_ v: JSON, _ name: String) throws -> Int {
        var n: Int64?
        if let i = v.int64Value, case .number(let num) = v, num.isInteger { n = i }
        if n == nil, let s = v.stringValue { n = Int64(s) }
        guard let got = n, got >= 0 else { throw ParseError(102, "Invalid value for \(name): must be a non-negative integer.") }
        return Int(clamping: got)
    }

    static func truthy(_ v: JSON) -> Bool {
        switch v {
        case .bool(let b): return b
        case .number(let n): return n.doubleValue != 0
        case .string(let s): return s == "1" || s.lowercased() == "true"
        default: return false
        }
    }

    /// A list parameter in any of its three forms (spec §2.3), split on commas and trimmed.
    static func list(_ v: JSON) throws -> [String] {
        var raw: [String] = []
        switch v {
        case .string(let s): raw = [s]
        case .array(let items):
            for item in items {
                if let s = item.stringValue { raw.append(s) }
                else if let arr = item.arrayValue { raw += arr.compactMap(\.stringValue) }
                else { throw ParseError(102, "Improper encode of parameter") }
            }
        default: throw ParseError(102, "Improper encode of parameter")
        }
        let joined = raw.count == 1 ? raw[0] : raw.joined(separator: ",")
        return joined.split(asciiByte: UInt8(ascii: ","))
            .map { trimmingSpaces($0) }.filter { !$0.isEmpty }
    }

    /// One `keys`/`order`/`include` entry without surrounding whitespace. Entries almost never have any, so
    /// a look at the first and last byte answers without Foundation (which bridged each entry through NSString).
    static func trimmingSpaces(_ entry: Substring) -> String {
        let bytes = entry.utf8
        guard let first = bytes.first, let last = bytes.last else { return "" }
        func plain(_ b: UInt8) -> Bool { b > 0x20 && b < 0x80 }
        if plain(first) && plain(last) { return String(entry) }
        return entry.trimmingCharacters(in: .whitespaces)
    }

    static func isKeyPath(_ s: String) -> Bool {
        let parts = s.split(separator: ".", omittingEmptySubsequences: false)
        return !parts.isEmpty && parts.allSatisfy { FieldNames.isValid(String($0)) }
    }
}

import Foundation
