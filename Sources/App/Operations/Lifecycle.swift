import Foundation

/// Where the daemon is in its life; `/health` answers 200 only while `.ready`.
public enum LifecycleState: String, Sendable {
    case starting, ready, draining
}

/// Thread-safe holder of the lifecycle state.
public final class Lifecycle: @unchecked Sendable {
    private let lock = NSLock()
    private var current: LifecycleState = .starting

    /// Creates a lifecycle in `.starting`.
    public init() {}

    /// The current state.
    public var state: LifecycleState { lock.lock(); defer { lock.unlock() }; return current }

    /// Moves to `state`.
    public func set(_ state: LifecycleState) { lock.lock(); current = state; lock.unlock() }
}
