import Core

/// Reads typed values out of the `parse` configuration section, accepting the string forms that
/// environment variables produce (`"true"`, `"25"`, `"a,b"`), and throws `ConfigError` naming the key.
struct ConfigReader {
    let section: JSONObject
    let prefix: String

    init(_ section: JSONObject, prefix: String = "parse") {
        self.section = section
        self.prefix = prefix
    }

    func fail(_ key: String, _ reason: String) -> ConfigError {
        ConfigError(key: "\(prefix).\(key)", reason: reason)
    }

    func string(_ key: String) throws -> String? {
        guard let v = section[key], !v.isNull else { return nil }
        // Environment values that look like numbers arrive as numbers (QUARTET_PARSE_APP_ID=12345).
        if case .number(let n) = v { return n.text }
        guard let s = v.stringValue else { throw fail(key, "must be a string") }
        return s
    }

    func bool(_ key: String, _ def: Bool) throws -> Bool {
        guard let v = section[key], !v.isNull else { return def }
        if let b = v.boolValue { return b }
        if let s = v.stringValue {
            switch s.lowercased() {
            case "true", "1", "yes": return true
            case "false", "0", "no": return false
            default: break
            }
        }
        throw fail(key, "must be a boolean")
    }

    func int(_ key: String, _ def: Int, min: Int = 0, max: Int = Int.max) throws -> Int {
        guard let v = section[key], !v.isNull else { return def }
        var n: Int64?
        if let i = v.int64Value { n = i }
        if n == nil, let s = v.stringValue { n = Int64(s.trimmingCharacters(in: .whitespaces)) }
        guard let got = n, got >= Int64(min), got <= Int64(max) else {
            throw fail(key, "must be an integer between \(min) and \(max)")
        }
        return Int(got)
    }

    func double(_ key: String, _ def: Double, min: Double = 0) throws -> Double {
        guard let v = section[key], !v.isNull else { return def }
        var d: Double?
        if case .number(let num) = v { d = num.doubleValue }
        if d == nil, let s = v.stringValue { d = Double(s) }
        guard let got = d, got.isFinite, got >= min else { throw fail(key, "must be a number >= \(min)") }
        return got
    }

    /// A list of strings: a JSON array of strings, or a comma-separated string (environment form).
    func stringList(_ key: String, _ def: [String]) throws -> [String] {
        guard let v = section[key], !v.isNull else { return def }
        if let s = v.stringValue {
            return s.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }
        guard let arr = v.arrayValue else { throw fail(key, "must be a list of strings") }
        var out: [String] = []
        for item in arr {
            guard let s = item.stringValue else { throw fail(key, "must be a list of strings") }
            out.append(s)
        }
        return out
    }

    /// A nested section (`fileUpload`, `idempotency`, ...); a JSON text string is accepted too.
    func object(_ key: String) throws -> JSONObject? {
        guard let v = section[key], !v.isNull else { return nil }
        if let o = v.objectValue { return o }
        if let s = v.stringValue, let parsed = try? JSONParser.parse(s), let o = parsed.objectValue { return o }
        throw fail(key, "must be an object")
    }

    func nested(_ key: String) throws -> ConfigReader {
        ConfigReader(try object(key) ?? JSONObject(), prefix: "\(prefix).\(key)")
    }
}

import Foundation
