/// A JSON number, kept as the literal text it was read from.
///
/// Keeping the text means a number passes through Quartet unchanged: a 30-digit id or `1.10` is written
/// back exactly as the client sent it, never rounded through `Double`. Equality and hashing are by text,
/// so `1` and `1.0` are different values; compare `doubleValue` or `int64Value` for numeric equality.
public struct JSONNumber: Sendable, Hashable, CustomStringConvertible {
    /// The literal, always valid under the RFC 8259 number grammar.
    public let text: String

    /// Wraps text already checked against the grammar (the parser's path).
    init(validatedText: String) { self.text = validatedText }

    /// A number from an integer, written in plain decimal.
    public init(_ v: Int64) { self.text = String(v) }

    /// A number from an integer, written in plain decimal.
    public init(_ v: Int) { self.text = String(v) }

    /// A number from a double, or nil when it is NaN or infinite (JSON cannot express those).
    ///
    /// The text is exactly what JavaScript's `Number.prototype.toString` (and so `JSON.stringify`) gives:
    /// the shortest digits that read back as the same double, integral values without a fraction
    /// (`3.0` -> `"3"`), plain notation for magnitudes in [1e-6, 1e21), exponent form otherwise
    /// (`1e+100`, `1e-7`), and `-0` written as `0`. Parse Server runs on JavaScript, so numbers this
    /// server computes look the same as the ones its clients already see.
    public init?(_ v: Double) {
        guard v.isFinite else { return nil }
        self.text = JSONNumber.javaScriptText(v)
    }

    /// A number from literal text, or nil when `text` is not a valid RFC 8259 number
    /// (no leading `+`, no leading zeros, digits on both sides of `.`, no NaN/Infinity).
    public init?(text: String) {
        var copy = text
        let valid = copy.withUTF8 { buf in JSONScanner.numberEnd(in: buf, from: 0) == buf.count }
        guard valid else { return nil }
        self.text = text
    }

    /// True when the literal has no fraction and no exponent (`12`, `-3`; not `12.0` or `1e3`).
    public var isInteger: Bool {
        !text.utf8.contains { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }
    }

    /// The exact integer the literal denotes, or nil when it has a non-zero fraction or lies outside
    /// Int64. Decided on the decimal digits, never through `Double`: `1e3` and `2.50e1` are exact
    /// integers (1000, 25), while `1.0000000000000001` is not one even though it rounds to `1.0`.
    public var int64Value: Int64? {
        if isInteger { return Int64(text) }
        return JSONNumber.exactInteger(text)
    }

    /// The nearest `Double`. Literals beyond the double range give ±infinity, tiny ones ±0.
    public var doubleValue: Double {
        // The grammar accepted by this type is a subset of what `Double(_:)` reads, so the fallback
        // is unreachable; it avoids a trap all the same.
        Double(text) ?? 0
    }

    /// The literal text.
    public var description: String { text }
}

extension JSONNumber {
    /// Exact integer test on a grammar-valid literal with a fraction or exponent.
    static func exactInteger(_ text: String) -> Int64? {
        var negative = false
        var mantissa: [UInt8] = []     // every mantissa digit, integer part then fraction
        var fractionCount = 0
        var exponent = 0
        var inFraction = false
        var iterator = text.utf8.makeIterator()
        while let c = iterator.next() {
            switch c {
            case UInt8(ascii: "-"): negative = true
            case UInt8(ascii: "."): inFraction = true
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                mantissa.append(c)
                if inFraction { fractionCount += 1 }
            case UInt8(ascii: "e"), UInt8(ascii: "E"):
                exponent = parseExponent(&iterator)
            default: return nil
            }
        }
        // value = mantissa * 10^(exponent - fractionCount); leading zeros do not change it.
        var digits = Array(mantissa.drop { $0 == UInt8(ascii: "0") })
        if digits.isEmpty { return 0 }
        let shift = exponent - fractionCount
        if shift < 0 {
            // The dropped digits must all be zero; dropping more digits than there are would need
            // the (non-zero) leading digit to vanish too, so that is never an integer.
            let drop = -shift
            guard drop <= digits.count, digits.suffix(drop).allSatisfy({ $0 == UInt8(ascii: "0") }) else { return nil }
            digits.removeLast(drop)
            if digits.isEmpty { return 0 }
        } else {
            // Int64 has at most 19 digits; anything longer is out of range.
            guard digits.count + shift <= 19 else { return nil }
            digits.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: shift))
        }
        guard digits.count <= 19 else { return nil }
        let literal = (negative ? "-" : "") + String(decoding: digits, as: UTF8.self)
        return Int64(literal)
    }

    /// Reads `[+-]digits` after an `e`, saturating so that absurd exponents cannot overflow.
    private static func parseExponent(_ iterator: inout String.UTF8View.Iterator) -> Int {
        var sign = 1
        var value = 0
        while let c = iterator.next() {
            if c == UInt8(ascii: "-") { sign = -1; continue }
            if c == UInt8(ascii: "+") { continue }
            let d = Int(c &- UInt8(ascii: "0"))
            guard d >= 0, d <= 9 else { break }
            // Far past any exponent that could still give an Int64 or a non-zero fraction check.
            if value < 100_000 { value = value * 10 + d }
        }
        return sign * value
    }
}
