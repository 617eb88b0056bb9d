import Foundation
import Core
import HTTP
import Storage

/// Feeds the HTTP server's events into the Prometheus registry.
///
/// Series handles are cached per (group, method, status): looking a labelled series up in the registry
/// builds and sorts its label text under the registry's lock, which showed up as several percent of the
/// CPU of a cheap request.
final class HTTPMetrics: ServerObserver, @unchecked Sendable {
    let registry: MetricsRegistry
    let openConnections: Gauge
    let parkedConnections: Gauge
    private struct Key: Hashable {
        let group: String
        let method: String
        let status: Int

        /// Hashes the status and the lengths only: equal keys still hash equally, the few keys that share
        /// these are told apart by `==`, and hashing the texts cost more than the rest of the lookup.
        func hash(into hasher: inout Hasher) {
            hasher.combine(status)
            hasher.combine(group.utf8.count &* 16 &+ method.utf8.count)
        }
    }
    private let lock = NSLock()
    /// Both series of a key under one entry: one hash per request instead of two.
    private var series: [Key: (counter: Counter, histogram: Histogram)] = [:]
    /// Request latency buckets in seconds: sub-millisecond for cached reads up to long polls.
    static let latencyBuckets: [Double] = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60]

    init(registry: MetricsRegistry) {
        self.registry = registry
        openConnections = registry.gauge("quartet_http_open_connections", help: "Open client connections.")
        parkedConnections = registry.gauge("quartet_http_parked_requests", help: "Requests parked waiting for an event.")
    }

    func requestCompleted(group: String, method: String, status: Int, seconds: Double) {
        let key = Key(group: group.isEmpty ? "/" : group, method: method, status: status)
        lock.lock()
        let cached = series[key]
        lock.unlock()
        if let cached {
            cached.counter.increment(by: 1)
            cached.histogram.observe(seconds)
            return
        }
        let counter = registry.counter(
            "quartet_http_requests_total", help: "HTTP requests answered.",
            labels: ["group": key.group, "method": method, "status": String(status)])
        let histogram = registry.histogram(
            "quartet_http_request_duration_seconds", help: "Time from request head to response.",
            buckets: Self.latencyBuckets, labels: ["group": key.group])
        lock.lock()
        series[key] = (counter, histogram)
        lock.unlock()
        counter.increment(by: 1)
        histogram.observe(seconds)
    }

    func connectionsChanged(open: Int, parked: Int) {
        openConnections.set(Double(open))
        parkedConnections.set(Double(parked))
    }
}

/// Feeds the storage writer's events into the Prometheus registry.
final class StorageMetrics: StorageObserver {
    let batchSizes: Histogram
    let commitSeconds: Histogram
    let queueDepth: Gauge
    let busyRetries: Counter
    let jobSeconds: Histogram
    /// Job-duration buckets in seconds: a small write takes tens of microseconds, and anything past
    /// 0.1 s (the longest a request within the configured limits should hold the writer) stands out.
    static let jobBuckets: [Double] = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25,
                                       0.5, 1, 2.5, 10]
    /// Batch-size buckets: powers of two up to the default maxBatchSize.
    static let batchBuckets: [Double] = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512]

    init(registry: MetricsRegistry) {
        batchSizes = registry.histogram("quartet_storage_commit_batch_size", help: "Write jobs per group commit.", buckets: Self.batchBuckets)
        commitSeconds = registry.histogram("quartet_storage_commit_duration_seconds", help: "Time to run and commit one batch.",
                                           buckets: HTTPMetrics.latencyBuckets)
        queueDepth = registry.gauge("quartet_storage_writer_queue_depth", help: "Write jobs waiting for the writer.")
        busyRetries = registry.counter("quartet_storage_busy_retries_total", help: "SQLITE_BUSY retries.")
        jobSeconds = registry.histogram("quartet_storage_job_duration_seconds",
                                        help: "Time one write job held the single writer (without the commit).",
                                        buckets: Self.jobBuckets)
    }

    func batchCommitted(jobs: Int, seconds: Double) {
        batchSizes.observe(Double(jobs))
        commitSeconds.observe(seconds)
    }
    func queueDepthChanged(_ depth: Int) { queueDepth.set(Double(depth)) }
    func busyRetry() { busyRetries.increment(by: 1) }
    func jobFinished(seconds: Double, failed: Bool) { jobSeconds.observe(seconds) }
}
