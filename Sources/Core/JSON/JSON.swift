/// A JSON value as defined by RFC 8259.
///
/// Numbers keep the literal text they were parsed from (see `JSONNumber`), so a value read from a request
/// and written back out is byte-for-byte the same number, however large or precise it is. Objects keep
/// their keys in insertion order and never hold a key twice (see `JSONObject`).
public enum JSON: Sendable, Hashable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number, kept as its literal text.
    case number(JSONNumber)
    /// A string (any Unicode text; the parser rejects unpaired surrogates, so every JSON string fits).
    case string(String)
    /// An ordered list of values.
    case array([JSON])
    /// An insertion-ordered map with unique keys.
    case object(JSONObject)
}

extension JSON {
    /// The member named `key` when this is an object holding it; nil otherwise.
    public subscript(key: String) -> JSON? {
        guard case .object(let object) = self else { return nil }
        return object[key]
    }

    /// The element at `index` when this is an array and `index` is in range; nil otherwise (never traps).
    public subscript(index: Int) -> JSON? {
        guard case .array(let array) = self, array.indices.contains(index) else { return nil }
        return array[index]
    }

    /// The text of a string value; nil for every other kind.
    public var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    /// The flag of a boolean value; nil for every other kind (no truthiness of numbers or strings).
    public var boolValue: Bool? {
        if case .bool(let b) = self { return b }
        return nil
    }

    /// The exact integer value of a number (see `JSONNumber.int64Value`); nil for every other kind.
    public var int64Value: Int64? {
        if case .number(let n) = self { return n.int64Value }
        return nil
    }

    /// The nearest `Double` to a number (see `JSONNumber.doubleValue`); nil for every other kind.
    public var doubleValue: Double? {
        if case .number(let n) = self { return n.doubleValue }
        return nil
    }

    /// The number itself, with its literal text; nil for every other kind.
    public var numberValue: JSONNumber? {
        if case .number(let n) = self { return n }
        return nil
    }

    /// The elements of an array; nil for every other kind.
    public var arrayValue: [JSON]? {
        if case .array(let a) = self { return a }
        return nil
    }

    /// The members of an object; nil for every other kind.
    public var objectValue: JSONObject? {
        if case .object(let o) = self { return o }
        return nil
    }

    /// True only for `null` (a missing member is `nil`, not `.null`).
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// Convenience: a number value from an integer.
    public static func int(_ value: Int) -> JSON { .number(JSONNumber(value)) }

    /// Convenience: a number value from a double; `null` when the double is not finite, as JSON has no
    /// NaN or infinity (the same choice JavaScript's `JSON.stringify` makes).
    public static func double(_ value: Double) -> JSON {
        guard let n = JSONNumber(value) else { return .null }
        return .number(n)
    }
}
