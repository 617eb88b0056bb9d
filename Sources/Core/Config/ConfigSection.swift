import Foundation

/// Reads typed values out of one section of the configuration (`parse`, `datastore`, `admin`, ...), and
/// throws a `ConfigError` naming the key (`parse.maxLimit`, `datastore.limits.maxBodyBytes`) when a value
/// does not fit.
///
/// Values set through `QUARTET_*` environment variables arrive as text, or as JSON when the text parses as
/// a number, boolean, array or object, so every reader also accepts the text forms of its type (`"true"`,
/// `"25"`, `"a,b"`). Missing keys and `null` give the default.
public struct ConfigSection: Sendable {
    /// The section's members.
    public let values: JSONObject
    /// Dotted path of the section, the prefix of every key in error messages (`parse`, `parse.fileUpload`).
    public let path: String

    /// A reader of `values`, the section found at `path`.
    public init(_ values: JSONObject, path: String) {
        self.values = values
        self.path = path
    }

    /// An error naming `path.key`.
    public func fail(_ key: String, _ reason: String) -> ConfigError {
        ConfigError(key: "\(path).\(key)", reason: reason)
    }

    /// True when the section sets `key` (to anything, `null` included).
    public func contains(_ key: String) -> Bool { values[key] != nil }

    /// The raw value of `key`; nil when missing or `null`.
    public subscript(_ key: String) -> JSON? {
        guard let value = values[key], !value.isNull else { return nil }
        return value
    }

    /// Throws `path.key: unknown key` for the first key of the section that is not in `known`, so that a
    /// misspelt option stops start-up instead of being ignored.
    public func rejectUnknownKeys(_ known: Set<String>) throws {
        for key in values.keys where !known.contains(key) {
            throw fail(key, "unknown key")
        }
    }

    /// A string. A number is taken as its literal text, because an environment value such as
    /// `QUARTET_PARSE_APP_ID=12345` arrives as a number.
    public func string(_ key: String) throws -> String? {
        guard let value = self[key] else { return nil }
        if case .number(let n) = value { return n.text }
        guard let text = value.stringValue else { throw fail(key, "must be a string") }
        return text
    }

    /// A boolean: `true`/`false`, the numbers 1/0, or their text forms (see `boolean(fromText:)`).
    public func bool(_ key: String, _ defaultValue: Bool) throws -> Bool {
        guard let value = self[key] else { return defaultValue }
        switch value {
        case .bool(let b): return b
        case .number(let n) where n.int64Value == 0 || n.int64Value == 1: return n.int64Value == 1
        case .string(let text): if let b = Self.boolean(fromText: text) { return b }
        default: break
        }
        throw fail(key, "must be a boolean")
    }

    /// An integer in `min...max`, from a JSON number or decimal text.
    public func int(_ key: String, _ defaultValue: Int, min: Int = 0, max: Int = Int.max) throws -> Int {
        guard let value = self[key] else { return defaultValue }
        let number = value.int64Value ?? value.stringValue.flatMap(Self.integer(fromText:))
        guard let n = number, n >= Int64(min), n <= Int64(max), let result = Int(exactly: n) else {
            throw fail(key, "must be an integer between \(min) and \(max)")
        }
        return result
    }

    /// A finite number of at least `min`, from a JSON number or text.
    public func double(_ key: String, _ defaultValue: Double, min: Double = 0) throws -> Double {
        guard let value = self[key] else { return defaultValue }
        let number = value.doubleValue ?? value.stringValue.flatMap { Double($0) }
        guard let n = number, n.isFinite, n >= min else { throw fail(key, "must be a number >= \(min)") }
        return n
    }

    /// A list of strings: a JSON array of strings, or comma-separated text (the environment form).
    public func stringList(_ key: String, _ defaultValue: [String]) throws -> [String] {
        guard let value = self[key] else { return defaultValue }
        if let text = value.stringValue { return Self.list(fromText: text) }
        guard let array = value.arrayValue else { throw fail(key, "must be a list of strings") }
        return try array.map { item in
            guard let text = item.stringValue else { throw fail(key, "must be a list of strings") }
            return text
        }
    }

    /// An object, or JSON text holding one (the environment form); `reason` is the error's wording.
    public func object(_ key: String, reason: String = "must be an object") throws -> JSONObject? {
        guard let value = self[key] else { return nil }
        if let object = value.objectValue { return object }
        if let text = value.stringValue, let parsed = try? JSONParser.parse(text), let object = parsed.objectValue {
            return object
        }
        throw fail(key, reason)
    }

    /// The nested section `key` (empty when missing), whose errors name `path.key.<inner key>`.
    public func nested(_ key: String) throws -> ConfigSection {
        ConfigSection(try object(key) ?? JSONObject(), path: "\(path).\(key)")
    }
}

extension ConfigSection {
    /// `true`, `1`, `yes`, `on` and `false`, `0`, `no`, `off`, in any case; nil for anything else.
    public static func boolean(fromText text: String) -> Bool? {
        switch text.lowercased() {
        case "true", "1", "yes", "on": return true
        case "false", "0", "no", "off": return false
        default: return nil
        }
    }

    /// A decimal integer, surrounding spaces allowed; nil when the text is not one or lies outside Int64.
    public static func integer(fromText text: String) -> Int64? {
        Int64(text.trimmingCharacters(in: .whitespaces))
    }

    /// Comma-separated items, each trimmed, empty ones dropped: `"a, b,"` gives `["a", "b"]`.
    public static func list(fromText text: String) -> [String] {
        text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }
}
