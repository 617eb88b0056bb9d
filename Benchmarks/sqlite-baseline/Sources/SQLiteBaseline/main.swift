// Durable single-row (or, with --rows-per-transaction, batched) inserts into a bare SQLite table: the ceiling a server pays per write when every
// request commits (and fsyncs) on its own. Quartet's group commit is measured against this number.
// With --lookups it measures primary-key point reads instead (Lookups.swift).
import Foundation

let options: Options
switch Options.parse(Array(CommandLine.arguments.dropFirst())) {
case .success(let parsed):
    options = parsed
case .failure(let problem):
    if !problem.message.isEmpty { print("error: \(problem.message)") }
    print(Options.usage)
    exit(problem.message.isEmpty ? 0 : 2)
}

for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: options.path + suffix) }
if options.lookups { runLookups(options) }

/// What one writer thread did.
struct WriterResult: Sendable {
    var rows = 0
    var busy = 0
    var latencies: [Double] = []   // seconds per committed transaction
    var failure: String?
}

/// Results of all writers, filled in by each thread as it finishes.
final class Results: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [WriterResult]
    init(count: Int) { items = [WriterResult](repeating: WriterResult(), count: count) }
    func set(_ index: Int, _ result: WriterResult) { lock.withLock { items[index] = result } }
    var all: [WriterResult] { lock.withLock { items } }
}

do {
    // Create the schema once before the clock starts.
    _ = try Connection(path: options.path, synchronous: options.synchronous)
    let sharedConnection = options.shared ? try Connection(path: options.path, synchronous: options.synchronous) : nil
    let sharedLock = NSLock()
    let payload = #"{"name":"benchmark row","score":1337,"tags":["a","b","c"],"text":"\#(String(repeating: "x", count: 64))"}"#

    let collected = Results(count: options.threads)
    let group = DispatchGroup()
    let start = DispatchTime.now().uptimeNanoseconds
    let deadline = start + UInt64(options.seconds * 1e9)

    for index in 0..<options.threads {
        group.enter()
        let thread = Thread {
            var result = WriterResult()
            do {
                let own = sharedConnection == nil ? try Connection(path: options.path, synchronous: options.synchronous) : nil
                var seq = 0
                while DispatchTime.now().uptimeNanoseconds < deadline {
                    let t0 = DispatchTime.now().uptimeNanoseconds
                    let committed: Bool
                    let batch = options.rowsPerTransaction
                    func write(_ connection: Connection?) throws -> Bool {
                        guard let connection else { return false }
                        return batch == 1 ? try connection.insertRow(thread: index, seq: seq, payload: payload)
                            : try connection.insertRows(thread: index, seq: seq, count: batch, payload: payload)
                    }
                    if let own {
                        committed = try write(own)
                    } else {
                        sharedLock.lock()
                        defer { sharedLock.unlock() }
                        committed = try write(sharedConnection)
                    }
                    if committed {
                        result.rows += batch
                        result.latencies.append(Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e9)
                        seq += batch
                    } else {
                        result.busy += 1
                    }
                }
            } catch {
                result.failure = "\(error)"
            }
            collected.set(index, result)
            group.leave()
        }
        thread.start()
    }
    group.wait()
    let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    let results = collected.all

    if let failure = results.compactMap(\.failure).first {
        print("error: \(failure)")
        exit(1)
    }
    let rows = results.reduce(0) { $0 + $1.rows }
    let busy = results.reduce(0) { $0 + $1.busy }
    let latencies = results.flatMap(\.latencies).sorted()
    func percentile(_ p: Double) -> Double {
        guard !latencies.isEmpty else { return 0 }
        let index = min(latencies.count - 1, Int((Double(latencies.count) * p).rounded(.up)) - 1)
        return latencies[max(0, index)] * 1000
    }
    let mode = options.shared ? "shared" : "per-thread"
    print(String(format: "threads=%d connections=%@ synchronous=%@ rows_per_transaction=%d seconds=%.2f rows=%d rows_per_second=%.1f p50_ms=%.3f p99_ms=%.3f busy=%d",
                 options.threads, mode, options.synchronous, options.rowsPerTransaction, elapsed, rows, Double(rows) / elapsed,
                 percentile(0.50), percentile(0.99), busy))
} catch {
    print("error: \(error)")
    exit(1)
}
