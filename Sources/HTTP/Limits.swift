/// Size limits applied while a request is read. Configurable for the whole server and per route group
/// (a group may only lower them; a route may set its own body limit).
public struct Limits: Sendable, Equatable {
    /// Longest accepted request-target in bytes; longer -> 414.
    public var maxRequestTarget: Int
    /// Largest header section in bytes (every field line with its CRLF, excluding the request line and
    /// the final empty line); larger -> 431.
    public var maxHeaderBytes: Int
    /// Most header fields accepted; more -> 431.
    public var maxHeaderCount: Int
    /// Largest body in bytes (after chunked decoding); larger -> 413.
    public var maxBodyBytes: Int
    /// Bodies up to this size stay in memory; larger ones are spooled to a temporary file.
    public var inMemoryBodyThreshold: Int

    /// Creates limits; every argument has the server's default.
    public init(maxRequestTarget: Int = 65_536, maxHeaderBytes: Int = 65_536, maxHeaderCount: Int = 100,
                maxBodyBytes: Int = 16 << 20, inMemoryBodyThreshold: Int = 1 << 20) {
        self.maxRequestTarget = maxRequestTarget
        self.maxHeaderBytes = maxHeaderBytes
        self.maxHeaderCount = maxHeaderCount
        self.maxBodyBytes = maxBodyBytes
        self.inMemoryBodyThreshold = inMemoryBodyThreshold
    }
}
