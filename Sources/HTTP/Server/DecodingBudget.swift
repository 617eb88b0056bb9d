import Core

/// The server-wide budget of memory that request bodies being decoded may take.
///
/// A body is received without it (bodies above `Limits.inMemoryBodyThreshold` are spooled to a file, so
/// receiving takes no memory to speak of); the memory goes when a handler reads the body and parses it. So
/// a complete body is charged before its handler runs and the charge is released when the handler returns,
/// by which time the body and its parsed form are dropped. Requests that find the budget spent wait in
/// their event loop (no thread waits) for `ServerConfiguration.decodingWait`, then get 503. Admitting on
/// `Content-Length` before reading instead would let a client that sends slowly hold the budget for as long
/// as it trickles.
///
/// The charge is what decoding the body may take at worst, not its size: the body read into memory, plus,
/// should it be JSON, its values, at most one per two bytes and at most `JSONRequestLimits.maxValues`, at
/// `bytesPerValueWhileParsing` each. Charging the size alone let 2 MB bodies of a million zeros, 32 of
/// them within a 64 MiB budget, take 1.3 GB.
public final class DecodingBudget: Sendable {
    /// Bodies smaller than this are never charged: their parsed form is small, and the requests the server
    /// is tuned for (object writes, `put_delta`, queries) pay nothing for the budget.
    public static let minimumCharged = 64 << 10
    /// What one JSON value may take while a body is parsed: its 24 bytes in the parser's stack of
    /// elements, which grows by doubling (up to twice that), plus the finished container's copy.
    public static var bytesPerValueWhileParsing: Int { 3 * JSONRequestLimits.bytesPerValue }

    /// Most bytes charged at once.
    public let capacity: Int
    private let inUse = Locked(0)

    /// A budget of `capacity` bytes (at least `minimumCharged`).
    public init(capacity: Int) {
        self.capacity = max(capacity, Self.minimumCharged)
    }

    /// What a body of `bodyBytes` is charged: 0 below `minimumCharged`, never more than the whole budget
    /// (a body that may take more is decoded alone).
    public func charge(forBodyBytes bodyBytes: Int) -> Int {
        guard bodyBytes >= Self.minimumCharged else { return 0 }
        let values = min(bodyBytes / 2 + 1, JSONRequestLimits.maxValues)
        let (parsed, overflow) = values.multipliedReportingOverflow(by: Self.bytesPerValueWhileParsing)
        guard !overflow, parsed <= capacity &- bodyBytes else { return capacity }
        return bodyBytes + parsed
    }

    /// Takes `charge` bytes if that many are free (never waits). A handler that decodes more than the body it
    /// was charged for (a gzip-encoded body) takes the difference here and releases it when done.
    public func tryAcquire(_ charge: Int) -> Bool {
        inUse.withLock { used in
            guard used <= capacity &- charge else { return false }
            used &+= charge
            return true
        }
    }

    /// Returns `charge` bytes; true when nothing is being decoded any more.
    @discardableResult
    public func release(_ charge: Int) -> Bool {
        inUse.withLock { used in
            used = max(0, used &- charge)
            return used == 0
        }
    }

    /// Bytes currently charged.
    public var bytesInUse: Int { inUse.withLock { $0 } }
}
