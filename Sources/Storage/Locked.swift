import Foundation

/// A value guarded by an `NSLock`; the only way in is `withLock`, so every access is serialized.
/// (NSLock rather than `Synchronization.Mutex` because Mutex needs macOS 15 and the package targets 14.)
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
