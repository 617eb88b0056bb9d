import Core

/// Validation and size accounting of field values (§5.5, §5.8 of the datastore specification).
public enum Values {
    /// Why a value is invalid, for messages like `change 2: field 'n': invalid int64 '01'`.
    public struct Invalid: Error, Sendable, Equatable {
        /// Human-readable reason.
        public let reason: String
    }

    /// Validates a field value (an atom or a list of atoms) and returns its accounted size.
    public static func validateValue(_ value: JSON) throws(Invalid) -> Int {
        if case .array(let items) = value {
            var total = 0
            for item in items {
                if case .array = item { throw Invalid(reason: "nested lists are not allowed") }
                // Each list item costs 20 bytes on top of its own size, as the clients count it.
                total += 20 + (try validateAtom(item))
            }
            return total
        }
        return try validateAtom(value)
    }

    /// Validates one atom (never a list) and returns its accounted size.
    public static func validateAtom(_ value: JSON) throws(Invalid) -> Int {
        switch value {
        case .null:
            throw Invalid(reason: "null is not a valid value")
        case .bool:
            return 0
        case .string(let s):
            return s.utf8.count
        case .number(let n):
            // A plain number always means a double; it must be finite when read as an IEEE double.
            guard let d = Double(n.text), d.isFinite else { throw Invalid(reason: "number out of range") }
            return 0
        case .array:
            throw Invalid(reason: "a list is not allowed here")
        case .object(let object):
            return try validateWrapped(object)
        }
    }

    /// Validates a wrapped atom `{"I"|"N"|"T"|"B": "<text>"}` (exactly one key, a string value).
    static func validateWrapped(_ object: JSONObject) throws(Invalid) -> Int {
        guard object.count == 1, let key = object.keys.first, let inner = object[key] else {
            throw Invalid(reason: "a wrapped value must have exactly one key")
        }
        guard case .string(let text) = inner else { throw Invalid(reason: "wrapped value '\(key)' must be a string") }
        switch key {
        case "I", "T":
            guard isInt64Text(text) else { throw Invalid(reason: "invalid \(key == "I" ? "int64" : "timestamp") value") }
            return 0
        case "N":
            guard text == "nan" || text == "+inf" || text == "-inf" else { throw Invalid(reason: "invalid special double") }
            return 0
        case "B":
            guard DBase64.isValid(text) else { throw Invalid(reason: "invalid bytes value") }
            return DBase64.decodedLength(ofValid: text)
        default:
            throw Invalid(reason: "unknown wrapped value type")
        }
    }

    /// `^(0|-?[1-9][0-9]{0,18})$` and within the int64 range.
    static func isInt64Text(_ text: String) -> Bool {
        var digits = Substring(text).utf8[...]
        if digits.first == 0x2D { digits = digits.dropFirst() }
        guard let first = digits.first, digits.count <= 19 else { return false }
        guard digits.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return false }
        if first == 0x30 { return text == "0" }
        return Int64(text) != nil
    }

    /// Accounted size of a value already known to be valid (used on stored records).
    public static func size(of value: JSON) -> Int {
        (try? validateValue(value)) ?? 0
    }

    /// Record size: 100 + Σ over fields (100 + value size).
    public static func recordSize(_ fields: JSONObject) -> Int {
        var total = 100
        for (_, value) in fields { total += 100 + size(of: value) }
        return total
    }
}
