import Core

/// A field's type once the rules of §4.3 have decided it.
public struct ResolvedFieldType: Sendable, Equatable {
    /// The type.
    public var type: FieldType
    /// For references: to-many.
    public var many: Bool
    /// For references: the entity referenced objects must belong to, when the schema fixes it.
    public var requiredTarget: String?

    /// A resolved type.
    public init(type: FieldType, many: Bool = false, requiredTarget: String? = nil) {
        self.type = type
        self.many = many
        self.requiredTarget = requiredTarget
    }
}

/// The typing rules of §4.3 and the value rules of §4.2, without storage: the store hands in what it knows
/// (schema, catalogue entry, and a way to find the entity of an existing object id).
public enum FieldTyping {
    /// The type of `commands.field`, first match wins: the schema, the catalogue, a type suffix on the
    /// command's name, inference from the first write. Nil when the commands cannot give a new field a type
    /// (only `rem-` or `del-` of a field never written: nothing to do).
    ///
    /// - Parameter entityOfObject: the entity of an existing object of this environment, nil for an unknown
    ///   id (inference types a value that names an existing object as a to-one reference).
    public static func resolve(_ commands: FieldCommands, schema: SchemaField?, catalogued: FieldInfo?,
                               entityOfObject: (String) throws -> String?) throws -> ResolvedFieldType? {
        let name = commands.field
        if let schema {
            if let suffix = commands.suffix, suffix != schema.type {
                throw mismatch(name)
            }
            return ResolvedFieldType(type: schema.type, many: schema.type == .reference && schema.many,
                                     requiredTarget: schema.target)
        }
        if let catalogued, let type = catalogued.type {
            if let suffix = commands.suffix, suffix != type { throw mismatch(name) }
            return ResolvedFieldType(type: type, many: catalogued.many)
        }
        if let suffix = commands.suffix {
            if suffix == .reference {
                return ResolvedFieldType(type: .reference, many: !commands.add.isEmpty || !commands.rem.isEmpty)
            }
            return ResolvedFieldType(type: suffix)
        }
        if !commands.add.isEmpty { return ResolvedFieldType(type: .reference, many: true) }
        if commands.incr != nil && commands.set == nil { return ResolvedFieldType(type: .number) }
        guard let value = commands.set else { return nil }
        return try infer(value, parsedJSON: commands.setJSON, entityOfObject: entityOfObject)
    }

    /// Inference from a `set-` value (§4.3 rule 4), in this order: a location with `|`, a day, the id of an
    /// existing object (a to-one reference), JSON text starting with `{` or `[`, a number in canonical form
    /// with at most 15 significant digits, else text. `parsedJSON`: the value already read as JSON
    /// (`FieldCommands.setJSON`), so that it is not parsed again.
    public static func infer(_ value: String, parsedJSON: JSON? = nil,
                             entityOfObject: (String) throws -> String?) throws -> ResolvedFieldType {
        if value.utf8.contains(UInt8(ascii: "|")), Location.parse(value) != nil { return ResolvedFieldType(type: .location) }
        if FieldValues.day(value) != nil { return ResolvedFieldType(type: .day) }
        if Identifiers.isObjectID(value), try entityOfObject(value) != nil {
            return ResolvedFieldType(type: .reference)
        }
        if let first = value.utf8.first, first == UInt8(ascii: "{") || first == UInt8(ascii: "["),
           (parsedJSON ?? FieldValues.requestJSON(value)) != nil {
            return ResolvedFieldType(type: .json)
        }
        if isCanonicalNumber(value) { return ResolvedFieldType(type: .number) }
        return ResolvedFieldType(type: .text)
    }

    /// `^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$` with at most 15 significant digits: numbers that read back
    /// unchanged. `007` or a 20-digit id stay text, so no information is lost.
    public static func isCanonicalNumber(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        var i = 0
        if i < bytes.count, bytes[i] == UInt8(ascii: "-") { i += 1 }
        let intStart = i
        while i < bytes.count, isDigit(bytes[i]) { i += 1 }
        let intDigits = bytes[intStart..<i]
        guard !intDigits.isEmpty, intDigits.count == 1 || intDigits.first != UInt8(ascii: "0") else { return false }
        var mantissa = Array(intDigits)
        if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
            i += 1
            let fractionStart = i
            while i < bytes.count, isDigit(bytes[i]) { i += 1 }
            guard i > fractionStart else { return false }
            mantissa += bytes[fractionStart..<i]
        }
        if i < bytes.count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
            i += 1
            if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { i += 1 }
            let exponentStart = i
            while i < bytes.count, isDigit(bytes[i]) { i += 1 }
            guard i > exponentStart else { return false }
        }
        guard i == bytes.count else { return false }
        let significant = mantissa.drop { $0 == UInt8(ascii: "0") }
        return significant.count <= 15 && FieldValues.number(text) != nil
    }

    /// The stored (and answered) JSON value of `text` for a value type (§4.2), or an `InvalidParameters`
    /// error naming the field. `options` restricts `#s` values when the schema lists them. `parsedJSON`: the
    /// text already read as JSON (`FieldCommands.setJSON`).
    public static func storedValue(_ text: String, type: FieldType, field: String, options: [String] = [],
                                   parsedJSON: JSON? = nil) throws -> JSON {
        if type == .select, !options.isEmpty, !options.contains(text) {
            throw BackbeamError(.invalidParameters, "The value of '\(field)' is not one of its options")
        }
        let encoded = type == .json ? parsedJSON ?? FieldValues.requestJSON(text) : ObjectEncoder.encodeValue(type, text)
        guard type != .reference, let value = encoded else {
            throw BackbeamError(.invalidParameters, "The value of '\(field)' is not a valid \(describe(type))")
        }
        return value
    }

    /// The value of an `incr-` command: a number; empty counts as 1 (the JS SDK's default step).
    public static func increment(_ text: String, field: String) throws -> Double {
        if text.isEmpty { return 1 }
        guard let n = FieldValues.number(text) else {
            throw BackbeamError(.invalidParameters, "The increment of '\(field)' is not a number")
        }
        return n
    }

    /// A human name of a type for messages.
    public static func describe(_ type: FieldType) -> String {
        switch type {
        case .text, .textarea, .richText: return "text"
        case .select: return "option"
        case .number: return "number"
        case .date: return "date in milliseconds"
        case .boolean: return "boolean"
        case .day: return "day (YYYY-MM-DD)"
        case .json: return "JSON value"
        case .location: return "location"
        case .reference: return "object reference"
        }
    }

    static func mismatch(_ field: String) -> BackbeamError {
        BackbeamError(.invalidParameters, "The type given for '\(field)' differs from the field's type")
    }

    private static func isDigit(_ b: UInt8) -> Bool { b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") }
}
