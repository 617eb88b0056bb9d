import Synchronization

/// The value-count and string-size limits every API applies when it parses a request body, set once at
/// start-up from the server configuration (`server.maxJsonValues`, `server.maxJsonStringBytes`).
///
/// Why a value count: a parsed value takes `bytesPerValue` (24) bytes however short its text is, so
/// `[0,0,0,…]` becomes twelve times its own size in memory, and up to three times that while the parser
/// builds it (its stack of elements grows by doubling, then the finished array is copied out). Counting
/// values while parsing refuses such a body before that memory is taken. Text the server stored itself is
/// parsed without these limits (`JSONParseOptions` has none by default), so lowering them never makes
/// stored data unreadable.
public enum JSONRequestLimits {
    /// Default for `maxValues`: a million values is far more than any object or batch an API accepts
    /// elsewhere, and bounds what parsing one body takes to about 72 MB (24 MB once parsed) plus its
    /// strings.
    public static let defaultMaxValues = 1_000_000
    /// Default for `maxStringBytes`: 16 MiB, the size of the largest document MongoDB (and so Parse Server)
    /// stores, hence the longest string Parse Server could ever accept.
    public static let defaultMaxStringBytes = 16 << 20
    /// Bytes one parsed value occupies in its array or object, before any heap storage of its own
    /// (strings of more than 15 UTF-8 bytes, containers); measured by `JSONMemoryTests`.
    public static var bytesPerValue: Int { MemoryLayout<JSON>.stride }

    private static let values = Atomic<Int>(defaultMaxValues)
    private static let stringBytes = Atomic<Int>(defaultMaxStringBytes)

    /// Most values a request body may hold.
    public static var maxValues: Int { values.load(ordering: .relaxed) }
    /// Longest string a request body may hold, in bytes of its text as sent.
    public static var maxStringBytes: Int { stringBytes.load(ordering: .relaxed) }

    /// Sets both limits (at start-up; values below 1 are raised to 1).
    public static func configure(maxValues: Int, maxStringBytes: Int) {
        values.store(max(1, maxValues), ordering: .relaxed)
        stringBytes.store(max(1, maxStringBytes), ordering: .relaxed)
    }

    /// `options` with the request limits applied.
    public static func apply(to options: inout JSONParseOptions) {
        options.maxValues = maxValues
        options.maxStringBytes = maxStringBytes
    }
}
