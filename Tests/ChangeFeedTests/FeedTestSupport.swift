import Foundation
import Storage
@testable import HTTP

/// Records what parked responses and streams hand to their connection.
final class RecordingSink: ResponseSink, @unchecked Sendable {
    private let lock = NSLock()
    private var chunkLog: [String] = []
    private var responses: [HTTPResponse] = []
    private var ends = 0
    private var timerLog: [String] = []

    func streamChunk(_ bytes: [UInt8], token: StreamToken) {
        lock.withLock { chunkLog.append(String(decoding: bytes, as: UTF8.self)) }
    }
    func streamFinished(token: StreamToken) { lock.withLock { ends += 1 } }
    func streamFinished(token: StreamToken, lastChunk: [UInt8]) {
        lock.withLock {
            if !lastChunk.isEmpty { chunkLog.append(String(decoding: lastChunk, as: UTF8.self)) }
            ends += 1
        }
    }
    func streamTimer(_ timer: StreamTimer, token: StreamToken) {
        lock.withLock {
            switch timer {
            case .heartbeat(let nanos, let bytes): timerLog.append("heartbeat \(nanos) \(String(decoding: bytes, as: UTF8.self))")
            case .deadline(let nanos, let sinceLastWrite): timerLog.append("deadline \(nanos) \(sinceLastWrite)")
            }
        }
    }
    func parkedCompleted(_ response: HTTPResponse, token: StreamToken) { lock.withLock { responses.append(response) } }

    var chunks: [String] { lock.withLock { chunkLog } }
    var endCount: Int { lock.withLock { ends } }
    var timers: [String] { lock.withLock { timerLog } }
    var bodies: [String] { lock.withLock { responses.map(\.bodyText) } }
}

extension HTTPResponse {
    /// The in-memory body as text.
    var bodyText: String {
        if case .bytes(let bytes) = body { return String(decoding: bytes, as: UTF8.self) }
        return ""
    }
}

extension Reply {
    /// The response of a reply answered at once.
    var immediate: HTTPResponse? {
        if case .response(let response) = self { return response }
        return nil
    }

    /// The parked response of a parked reply.
    var parked: ParkedResponse? {
        if case .parked(let parked) = self { return parked }
        return nil
    }
}

/// The state the fake evaluators read: the latest sequence per topic, like a store a commit updated.
final class FakeStore: @unchecked Sendable {
    private let lock = NSLock()
    private var sequences: [String: Int64] = [:]
    private var calls = 0
    private var batches: [Int] = []

    func set(_ topic: String, _ sequence: Int64) { lock.withLock { sequences[topic] = sequence } }
    /// The topic's latest sequence; `Int64.min` before its first commit.
    func sequence(_ topic: String) -> Int64 { lock.withLock { sequences[topic] ?? .min } }
    func noteCall(batch: Int) { lock.withLock { calls += 1; batches.append(batch) } }
    var callCount: Int { lock.withLock { calls } }
    var batchSizes: [Int] { lock.withLock { batches } }

    /// Commits: the state changes first, then the event is published (as the writer does after COMMIT).
    func commit(_ topic: String, _ sequence: Int64, on bus: ChangeBus) {
        set(topic, sequence)
        bus.publish([ChangeEvent(topic: topic, sequence: sequence)])
    }
}

/// Polls `condition` for up to `seconds`.
func eventually(_ seconds: Double = 5, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if condition() { return true }
        Thread.sleep(forTimeInterval: 0.005)
    }
    return condition()
}

/// A value behind a lock, for closures the tests hand to other threads.
final class LockedBox<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value
    init(_ value: Value) { self.value = value }
    func get() -> Value { lock.withLock { value } }
    func set(_ newValue: Value) { lock.withLock { value = newValue } }
    func update(_ body: (inout Value) -> Void) { lock.withLock { body(&value) } }
}
