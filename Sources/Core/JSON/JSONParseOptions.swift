/// What the parser does when an object names the same key twice (RFC 8259 leaves it open).
public enum DuplicateKeyPolicy: Sendable, Hashable {
    /// Fail with `JSONError.duplicateKey`. The default: an ambiguous body is refused rather than guessed.
    case reject
    /// Keep the last value, in the first key's position (what JavaScript's `JSON.parse` does).
    case lastWins
    /// Keep the first value and ignore the rest.
    case firstWins
}

/// Limits and policies for `JSONParser`.
public struct JSONParseOptions: Sendable {
    /// Deepest nesting of arrays and objects accepted; a top-level scalar has depth 0, `[]` depth 1.
    public var maxDepth: Int = 64
    /// Largest input accepted, in bytes (checked before any parsing).
    public var maxBytes: Int = 16 << 20
    /// Handling of repeated keys within one object.
    public var duplicateKeys: DuplicateKeyPolicy = .reject
    /// When true, one leading UTF-8 byte order mark (EF BB BF) is skipped instead of refused. RFC 8259
    /// forbids sending one but lets a parser ignore it; some APIs promise to.
    public var allowsByteOrderMark = false
    /// When true, a decimal literal (one with a fraction or an exponent) whose nearest binary64 value is
    /// infinite, such as `1e400`, is refused as a syntax error. Numbers are kept as text either way; APIs
    /// that give decimal literals a binary64 meaning (Couch hashes them into revision ids) cannot give one
    /// to these. Integer literals are never affected: they have an exact meaning at any size. Off by
    /// default, as the other APIs echo such literals unchanged.
    public var rejectsDecimalOverflow = false
    /// Most values (scalars, arrays and objects, the document itself included) one text may hold; the
    /// parser refuses the text as soon as it meets one more. Each value costs a fixed number of bytes
    /// once parsed (see `JSONRequestLimits`), so this is what bounds the memory a small-valued text such as
    /// `[0,0,0,…]` can make the parser take, far beyond its own size. Unlimited by default: text this
    /// server stored is read back whatever the current request limits are; request parsers take
    /// `JSONRequestLimits.apply(to:)`.
    public var maxValues: Int = .max
    /// Longest string (key or value) accepted, in bytes of its raw text between the quotes; checked as
    /// each string ends. Unlimited by default, like `maxValues`.
    public var maxStringBytes: Int = .max

    /// Options with the given limits; the defaults suit request bodies.
    public init(maxDepth: Int = 64, maxBytes: Int = 16 << 20, duplicateKeys: DuplicateKeyPolicy = .reject,
                allowsByteOrderMark: Bool = false, rejectsDecimalOverflow: Bool = false) {
        self.maxDepth = maxDepth
        self.maxBytes = maxBytes
        self.duplicateKeys = duplicateKeys
        self.allowsByteOrderMark = allowsByteOrderMark
        self.rejectsDecimalOverflow = rejectsDecimalOverflow
    }
}

/// Why a JSON text was refused. Offsets count bytes from the start of the input.
public enum JSONError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The text breaks the RFC 8259 grammar at `offset`.
    case syntax(offset: Int, message: String)
    /// An object repeats `key` and the policy is `.reject`.
    case duplicateKey(String)
    /// Arrays/objects nest deeper than `limit`.
    case tooDeep(limit: Int)
    /// The input is longer than `limit` bytes.
    case tooLarge(limit: Int)
    /// A string holds bytes that are not well-formed UTF-8, starting at `offset`.
    case invalidUTF8(offset: Int)
    /// The input is empty or only whitespace.
    case emptyInput
    /// The text holds more than `limit` values (`JSONParseOptions.maxValues`).
    case tooManyValues(limit: Int)
    /// A string is longer than `limit` bytes (`JSONParseOptions.maxStringBytes`).
    case stringTooLong(limit: Int)

    /// A one-line explanation suitable for an error response.
    public var description: String {
        switch self {
        case .syntax(let offset, let message): return "invalid JSON at byte \(offset): \(message)"
        case .duplicateKey(let key): return "invalid JSON: duplicate key \"\(key)\""
        case .tooDeep(let limit): return "invalid JSON: nested deeper than \(limit) levels"
        case .tooLarge(let limit): return "invalid JSON: larger than \(limit) bytes"
        case .invalidUTF8(let offset): return "invalid JSON at byte \(offset): malformed UTF-8"
        case .emptyInput: return "invalid JSON: empty input"
        case .tooManyValues(let limit): return "invalid JSON: more than \(limit) values"
        case .stringTooLong(let limit): return "invalid JSON: a string longer than \(limit) bytes"
        }
    }
}
