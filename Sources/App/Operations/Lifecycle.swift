import Synchronization

/// Where the daemon is in its life; `/health` answers 200 only while `.ready`.
public enum LifecycleState: String, Sendable, CaseIterable {
    case starting, ready, draining
}

/// Thread-safe holder of the lifecycle state.
public final class Lifecycle: Sendable {
    /// The state's position in `LifecycleState.allCases`. An atomic rather than a lock: every `/health`
    /// request reads it, from both I/O threads, and a lock's line then moved between the cores each time.
    private let current = Atomic<Int>(0)

    /// Creates a lifecycle in `.starting`.
    public init() {}

    /// The current state.
    public var state: LifecycleState {
        let cases = LifecycleState.allCases
        let index = current.load(ordering: .acquiring)
        return cases.indices.contains(index) ? cases[index] : .starting
    }

    /// Moves to `state`.
    public func set(_ state: LifecycleState) {
        current.store(LifecycleState.allCases.firstIndex(of: state) ?? 0, ordering: .releasing)
    }
}
