import Core

/// The API's own metrics (request counts and latencies come from the server observer).
struct DatastoreMetrics: Sendable {
    let commits: Counter
    let conflicts: Counter
    let retries: Counter
    let waiting: Gauge

    init(_ registry: MetricsRegistry) {
        commits = registry.counter("quartet_datastore_deltas_committed_total", help: "Deltas stored by put_delta")
        conflicts = registry.counter("quartet_datastore_put_conflicts_total", help: "put_delta answered with conflict")
        retries = registry.counter("quartet_datastore_put_retries_total", help: "Idempotent put_delta retries by nonce")
        waiting = registry.gauge("quartet_datastore_awaits_waiting", help: "await requests currently parked")
    }

    func putOutcome(_ outcome: PutOutcome) {
        switch outcome {
        case .committed: commits.increment()
        case .conflict: conflicts.increment()
        case .retried: retries.increment()
        case .notFound, .accessDenied: break
        }
    }
}
