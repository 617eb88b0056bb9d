import Foundation

/// A value behind an `NSLock`, reached only through `withLock`. Used instead of `Synchronization.Mutex`
/// because the thread sanitizer understands pthread mutexes but not Mutex's futex, and a clean sanitizer
/// run is how this module's concurrency is checked (as in HTTP and Storage, whose `Locked` is internal).
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with exclusive access to the value.
    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
