import Core
import Glibc
import Synchronization

/// IMF-fixdate formatting ("Sun, 06 Nov 1994 08:49:37 GMT") without Foundation, for `Date` and
/// `Last-Modified` headers.
enum HTTPDate {
    private static let days: [String] = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months: [String] = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct",
                                           "Nov", "Dec"]

    /// Formats a UNIX time in seconds.
    static func format(epochSeconds: Int) -> String {
        var seconds = time_t(epochSeconds)
        var parts = tm()
        guard gmtime_r(&seconds, &parts) != nil else { return "Thu, 01 Jan 1970 00:00:00 GMT" }
        let day = days[Int(parts.tm_wday) % 7]
        let month = months[Int(parts.tm_mon) % 12]
        return "\(day), \(two(Int(parts.tm_mday))) \(month) \(Int(parts.tm_year) + 1900) "
            + "\(two(Int(parts.tm_hour))):\(two(Int(parts.tm_min))):\(two(Int(parts.tm_sec))) GMT"
    }

    private static func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }

    /// The current UNIX time in whole seconds, from the coarse clock (cheap; one-second resolution is all
    /// the Date header needs).
    static func nowSeconds() -> Int {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME_COARSE, &spec)
        return Int(spec.tv_sec)
    }
}

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
