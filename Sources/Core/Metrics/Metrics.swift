import Synchronization

/// A monotonically increasing count (requests served, errors). Lock-free.
public final class Counter: Sendable {
    private let storage = Atomic<Int64>(0)

    init() {}

    /// Adds `amount`. Negative amounts are ignored: a Prometheus counter must never go down, and a
    /// decrease would be read by `rate()` as a process restart.
    public func increment(by amount: Int64 = 1) {
        guard amount > 0 else { return }
        storage.wrappingAdd(amount, ordering: .relaxed)
    }

    /// The current count.
    public var value: Int64 { storage.load(ordering: .relaxed) }
}

/// A value that goes up and down (open connections, queue depth). Lock-free.
public final class Gauge: Sendable {
    /// The double's bit pattern, so it can live in an atomic word.
    private let bits = Atomic<UInt64>(0)

    init() {}

    /// Sets the value.
    public func set(_ v: Double) { bits.store(v.bitPattern, ordering: .relaxed) }

    /// Adds `d` (negative to subtract), retrying if another thread changed the value meanwhile.
    public func add(_ d: Double) {
        var current = bits.load(ordering: .relaxed)
        while true {
            let next = (Double(bitPattern: current) + d).bitPattern
            let (exchanged, original) = bits.compareExchange(expected: current, desired: next, ordering: .relaxed)
            if exchanged { return }
            current = original
        }
    }

    /// The current value.
    public var value: Double { Double(bitPattern: bits.load(ordering: .relaxed)) }
}

/// Observations counted into cumulative buckets (request durations). Behind `Locked` (a pthread mutex
/// ThreadSanitizer can follow), not `Mutex`.
public final class Histogram: Sendable {
    /// Upper bounds, ascending, finite, without duplicates; `+Inf` is implicit.
    public let bounds: [Double]
    private let state: Locked<State>

    struct State {
        var counts: [Int64]   // per bucket, not cumulative; last slot is the +Inf overflow
        var sum: Double = 0
        var count: Int64 = 0
    }

    /// A point-in-time copy of a histogram's data.
    public struct Snapshot: Sendable, Equatable {
        /// Cumulative counts for each bound in `Histogram.bounds`, then for +Inf.
        public let cumulativeCounts: [Int64]
        /// Sum of all observed values.
        public let sum: Double
        /// Number of observations.
        public let count: Int64
    }

    init(bounds: [Double]) {
        self.bounds = Array(Set(bounds.filter(\.isFinite))).sorted()
        state = Locked(State(counts: [Int64](repeating: 0, count: self.bounds.count + 1)))
    }

    /// Records one observation. NaN is ignored (it belongs in no bucket and would poison the sum).
    public func observe(_ v: Double) {
        guard !v.isNaN else { return }
        // Buckets are "less than or equal": the first bound >= v.
        var low = 0, high = bounds.count
        while low < high {
            let mid = (low + high) / 2
            if bounds[mid] < v { low = mid + 1 } else { high = mid }
        }
        let slot = low
        state.withLock { s in
            if s.counts.indices.contains(slot) { s.counts[slot] &+= 1 }
            s.sum += v
            s.count &+= 1
        }
    }

    /// The current counts, cumulative as Prometheus exposes them.
    public func snapshot() -> Snapshot {
        state.withLock { s in
            var running: Int64 = 0
            let cumulative = s.counts.map { running &+= $0; return running }
            return Snapshot(cumulativeCounts: cumulative, sum: s.sum, count: s.count)
        }
    }
}
