/// What follows the response head.
public enum ResponseBody: Sendable {
    /// No body (`Content-Length: 0`, or nothing at all for 1xx/204/304).
    case empty
    /// A body held in memory, sent with `Content-Length`.
    case bytes([UInt8])
    /// `length` bytes of the file at `path` starting at `offset`, streamed from disk without loading it.
    case file(path: String, offset: Int, length: Int)
    /// A chunked body: the producer receives the writer once the head is on its way and may keep it and
    /// write from any thread until it calls `finish()`.
    case stream(@Sendable (StreamWriter) -> Void)

    /// The body length when it is known in advance (nil for streams).
    public var knownLength: Int? {
        switch self {
        case .empty: return 0
        case .bytes(let bytes): return bytes.count
        case .file(_, _, let length): return length
        case .stream: return nil
        }
    }
}
