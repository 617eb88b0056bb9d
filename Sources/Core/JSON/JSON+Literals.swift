/// Literal syntax, so tests and handlers can write `["status": "ok", "count": 3]`.
extension JSON: ExpressibleByNilLiteral {
    /// `nil` is JSON `null`.
    public init(nilLiteral: ()) { self = .null }
}

extension JSON: ExpressibleByBooleanLiteral {
    /// A boolean literal.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension JSON: ExpressibleByIntegerLiteral {
    /// An integer literal, written without fraction or exponent.
    public init(integerLiteral value: Int64) { self = .number(JSONNumber(value)) }
}

extension JSON: ExpressibleByFloatLiteral {
    /// A floating-point literal, rendered in the canonical form of `JSONNumber.init?(_: Double)`.
    /// A literal that overflows to infinity becomes `null`, as JSON cannot express it.
    public init(floatLiteral value: Double) { self = .double(value) }
}

extension JSON: ExpressibleByStringLiteral {
    /// A string literal.
    public init(stringLiteral value: String) { self = .string(value) }
}

extension JSON: ExpressibleByArrayLiteral {
    /// An array literal.
    public init(arrayLiteral elements: JSON...) { self = .array(elements) }
}

extension JSON: ExpressibleByDictionaryLiteral {
    /// An object literal; members keep the order written, and a repeated key replaces the earlier value
    /// in the earlier position.
    public init(dictionaryLiteral elements: (String, JSON)...) { self = .object(JSONObject(elements)) }
}
