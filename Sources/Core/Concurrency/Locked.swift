import Foundation

/// A value behind an `NSLock`, reached only through `withLock`, so every access is serialized.
///
/// Used instead of `Synchronization.Mutex` because the thread sanitizer understands pthread mutexes but
/// not Mutex's futex, and a clean sanitizer run is how the server's concurrency is checked.
/// `withLock` is inlinable: it guards state on the event loop's and the writer's hottest paths, and
/// callers in other modules must get it specialized for their value and closure, with no generic call.
public final class Locked<Value>: @unchecked Sendable {
    @usableFromInline let lock = NSLock()
    @usableFromInline var value: Value

    /// A lock around `value`.
    public init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with exclusive access to the value.
    @inlinable
    public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
