import Core
import Foundation

/// Runs work once per key at a time: callers that ask for a key while its work runs wait for that run
/// and all receive its result. Once the run is over the key is free again (the work itself looks in
/// the cache first, so a caller arriving just after a run finds its result there).
final class SingleFlight<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    /// One run and the callers waiting for it.
    private final class Flight: @unchecked Sendable {
        // `result` is guarded by `condition`.
        let condition = NSCondition()
        var result: Value?

        func wait() -> Value {
            condition.lock()
            defer { condition.unlock() }
            while true {
                if let result { return result }
                condition.wait()
            }
        }

        func finish(_ value: Value) {
            condition.lock()
            result = value
            condition.broadcast()
            condition.unlock()
        }
    }

    private let flights = Locked<[Key: Flight]>([:])
    private let followers = Locked(0)

    /// `work`'s result for `key`, computed by this caller or by the one already computing it. `led` is
    /// true for the caller that ran `work`.
    func run(_ key: Key, _ work: () -> Value) -> (value: Value, led: Bool) {
        let (flight, leader) = flights.withLock { map -> (Flight, Bool) in
            if let running = map[key] { return (running, false) }
            let flight = Flight()
            map[key] = flight
            return (flight, true)
        }
        guard leader else {
            followers.withLock { $0 += 1 }
            defer { followers.withLock { $0 -= 1 } }
            return (flight.wait(), false)
        }
        let value = work()
        flights.withLock { _ = $0.removeValue(forKey: key) }
        flight.finish(value)
        return (value, true)
    }

    /// Keys being computed now.
    var running: Int { flights.withLock { $0.count } }

    /// Callers waiting for another's run now.
    var waiting: Int { followers.withLock { $0 } }
}
