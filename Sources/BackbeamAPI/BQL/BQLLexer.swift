/// One BQL token with the offset where it starts.
struct BQLToken: Equatable {
    enum Kind: Equatable {
        /// `[A-Za-z_][A-Za-z0-9_-]*`: a field id or a keyword (keywords are told apart by the parser, in
        /// context, so that a field may share a keyword's spelling where the grammar is unambiguous).
        case word(String)
        /// `[0-9]+(\.[0-9]+)?`, as written.
        case number(String)
        case question
        case dot
        case comma
        case open
        case close
        /// `=`, `<`, `<=`, `>`, `>=`.
        case comparison(BQLOperator)
        case end
    }

    var kind: Kind
    var offset: Int
}

/// Splits BQL text into tokens (§6.1).
///
/// Tokens are separated by space, tab, CR or LF, and operators need no surrounding space (`weight>=?`).
/// Any other character, including every non-ASCII one, is an error at its offset: the grammar has no
/// string literals, so there is nothing a quote or a `-` comment could legitimately start.
enum BQLLexer {
    static func tokens(_ text: String) throws(BQLError) -> [BQLToken] {
        let bytes = Array(text.utf8)
        var tokens: [BQLToken] = []
        var i = 0
        while i < bytes.count {
            let b = bytes[i]
            let start = i
            switch b {
            case 0x20, 0x09, 0x0D, 0x0A:
                i += 1
                continue
            case UInt8(ascii: "?"): tokens.append(BQLToken(kind: .question, offset: start)); i += 1
            case UInt8(ascii: "."): tokens.append(BQLToken(kind: .dot, offset: start)); i += 1
            case UInt8(ascii: ","): tokens.append(BQLToken(kind: .comma, offset: start)); i += 1
            case UInt8(ascii: "("): tokens.append(BQLToken(kind: .open, offset: start)); i += 1
            case UInt8(ascii: ")"): tokens.append(BQLToken(kind: .close, offset: start)); i += 1
            case UInt8(ascii: "="): tokens.append(BQLToken(kind: .comparison(.equal), offset: start)); i += 1
            case UInt8(ascii: "<"), UInt8(ascii: ">"):
                let orEqual = i + 1 < bytes.count && bytes[i + 1] == UInt8(ascii: "=")
                let op: BQLOperator = b == UInt8(ascii: "<") ? (orEqual ? .lessOrEqual : .less)
                                                             : (orEqual ? .greaterOrEqual : .greater)
                tokens.append(BQLToken(kind: .comparison(op), offset: start))
                i += orEqual ? 2 : 1
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                i = scanDigits(bytes, from: i)
                if i + 1 < bytes.count, bytes[i] == UInt8(ascii: "."), isDigit(bytes[i + 1]) {
                    i = scanDigits(bytes, from: i + 1)
                }
                tokens.append(BQLToken(kind: .number(String(decoding: bytes[start..<i], as: UTF8.self)), offset: start))
            default:
                guard isWordStart(b) else { throw unexpected(bytes, at: start) }
                i += 1
                while i < bytes.count, isWordStart(bytes[i]) || isDigit(bytes[i]) || bytes[i] == UInt8(ascii: "-") {
                    i += 1
                }
                tokens.append(BQLToken(kind: .word(String(decoding: bytes[start..<i], as: UTF8.self)), offset: start))
            }
        }
        tokens.append(BQLToken(kind: .end, offset: bytes.count))
        return tokens
    }

    private static func scanDigits(_ bytes: [UInt8], from start: Int) -> Int {
        var i = start
        while i < bytes.count, isDigit(bytes[i]) { i += 1 }
        return i
    }

    static func isDigit(_ b: UInt8) -> Bool { b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") }

    static func isWordStart(_ b: UInt8) -> Bool {
        (b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z")) || (b >= UInt8(ascii: "a") && b <= UInt8(ascii: "z"))
            || b == UInt8(ascii: "_")
    }

    /// The error for an unexpected byte: printable ASCII is quoted, anything else named by code point.
    private static func unexpected(_ bytes: [UInt8], at offset: Int) -> BQLError {
        let b = bytes[offset]
        if b >= 0x21 && b < 0x7F {
            return BQLError(.syntax, "Unexpected character '\(Character(Unicode.Scalar(b)))'", at: offset)
        }
        let rest = String(decoding: bytes[offset...].prefix(4), as: UTF8.self)
        let scalar = rest.unicodeScalars.first.map { String($0.value, radix: 16, uppercase: true) } ?? "?"
        return BQLError(.syntax, "Unexpected character U+\(String(repeating: "0", count: max(0, 4 - scalar.count)))\(scalar)",
                        at: offset)
    }
}
