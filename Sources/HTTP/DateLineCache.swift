import Core

/// The `Date: ...\r\n` header line for the current second, formatted at most once per second. Not
/// thread-safe: each event loop keeps one of its own, so serializing a response there touches no memory
/// another core writes; `DateHeaderCache` shares one between the worker threads under a lock.
struct DateLineCache {
    private var second = -1
    private var bytes: [UInt8] = []

    /// The line for the current second.
    mutating func line() -> [UInt8] {
        let now = HTTPDate.nowSeconds()
        if now != second {
            second = now
            bytes = Array("Date: \(HTTPDate.format(epochSeconds: now))\r\n".utf8)
        }
        return bytes
    }
}

/// A `DateLineCache` shared by every thread that serializes responses.
final class DateHeaderCache: Sendable {
    private let cache = Locked(DateLineCache())

    /// The line for the current second.
    func line() -> [UInt8] {
        cache.withLock { $0.line() }
    }
}
