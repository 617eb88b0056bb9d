import Core
import Dispatch
import Logging

/// Runs database compactions (§5.12) in the background, one at a time per database, and says which are
/// running (`compact_running`).
final class Compactor: Sendable {
    private let store: any CouchStore
    private let logger: Logger
    private let running = Locked<Set<String>>([])
    private let queue = DispatchQueue(label: "quartet.couch.compaction", qos: .utility)

    init(store: any CouchStore, logger: Logger) {
        self.store = store
        self.logger = logger
    }

    /// Starts compacting `database` unless a compaction of it is already running (then nothing more
    /// happens, as §3.2.6 says).
    func start(_ database: String) {
        let started = running.withLock { $0.insert(database).inserted }
        guard started else { return }
        queue.async { [self] in
            do {
                _ = try store.compact(database: database)
            } catch {
                logger.error("compaction failed", metadata: ["database": "\(database)", "error": "\(error)"])
            }
            running.withLock { _ = $0.remove(database) }
        }
    }

    /// Whether a compaction of `database` is running.
    func isRunning(_ database: String) -> Bool {
        running.withLock { $0.contains(database) }
    }
}
