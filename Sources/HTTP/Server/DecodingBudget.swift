import Core

/// The server-wide budget of request-body bytes being decoded at once.
///
/// A body is received without it (bodies above `Limits.inMemoryBodyThreshold` are spooled to a file, so
/// receiving takes no memory to speak of); the memory goes when a handler reads the body and parses it,
/// which takes several times the body's size. So a complete body is charged its size before its handler
/// runs and the charge is released when the handler returns, by which time the body and its parsed form
/// are dropped. Requests that find the budget spent wait in their event loop (no thread waits) for
/// `ServerConfiguration.decodingWait`, then get 503. Admitting on `Content-Length` before reading instead
/// would let a client that sends slowly hold the budget for as long as it trickles.
public final class DecodingBudget: Sendable {
    /// Bodies smaller than this are never charged: their parsed form is small, and the requests the server
    /// is tuned for (object writes, `put_delta`, queries) pay nothing for the budget.
    static let minimumCharged = 64 << 10

    /// Most body bytes being decoded at once.
    public let capacity: Int
    private let inUse = Locked(0)

    /// A budget of `capacity` bytes (at least `minimumCharged`).
    public init(capacity: Int) {
        self.capacity = max(capacity, Self.minimumCharged)
    }

    /// What a body of `bodyBytes` is charged: 0 below `minimumCharged`, never more than the whole budget
    /// (a body larger than the budget is decoded alone).
    func charge(forBodyBytes bodyBytes: Int) -> Int {
        bodyBytes < Self.minimumCharged ? 0 : min(bodyBytes, capacity)
    }

    /// Takes `charge` bytes if that many are free.
    func tryAcquire(_ charge: Int) -> Bool {
        inUse.withLock { used in
            guard used <= capacity &- charge else { return false }
            used &+= charge
            return true
        }
    }

    /// Returns `charge` bytes; true when nothing is being decoded any more.
    @discardableResult
    func release(_ charge: Int) -> Bool {
        inUse.withLock { used in
            used = max(0, used &- charge)
            return used == 0
        }
    }

    /// Bytes currently charged.
    public var bytesInUse: Int { inUse.withLock { $0 } }
}
