/// Per-write context inside the writer's transaction (job runs in its own SAVEPOINT).
///
/// Only valid during the job: it must not be kept or used from another thread.
public final class WriteContext {
    /// The write connection, inside the batch transaction and the job's savepoint.
    public let db: Database
    private(set) var events: [ChangeEvent] = []
    private(set) var commitActions: [() -> Void] = []

    init(db: Database) {
        self.db = db
    }

    /// Queues `event` for the change bus; it is delivered only after the batch commits, and dropped if
    /// this job fails or the commit does.
    public func publish(_ event: ChangeEvent) {
        events.append(event)
    }

    /// Runs `action` on the writer thread right after the batch commits (before the next batch starts),
    /// and not at all if this job or the commit fails. For side effects outside the database that must
    /// follow the commit, such as unlinking files whose rows were deleted.
    public func afterCommit(_ action: @escaping () -> Void) {
        commitActions.append(action)
    }
}

/// A type-erased write job as the writer queue holds it.
struct WriteJob: Sendable {
    /// Runs alone in its own transaction instead of sharing a batch (migrations, garbage collection).
    let solo: Bool
    /// Runs the job body on the writer thread; the outcome says whether it failed and how to report.
    let perform: @Sendable (WriteContext) -> JobOutcome
    /// Reports an error without running (the storage closed, or the batch could not begin).
    let fail: @Sendable (any Error) -> Void
}

/// What a job's body did, and how to tell its caller once the commit's fate is known.
struct JobOutcome: Sendable {
    /// The body's error; nil when the body returned.
    let error: (any Error)?
    /// Called once with nil after a durable commit, or with the error that failed the batch. A job
    /// whose own body failed always reports its own error.
    let deliver: @Sendable ((any Error)?) -> Void
}

extension WriteJob {
    /// Erases a typed job and its completion into a queue entry.
    init<T: Sendable>(solo: Bool = false, _ body: @escaping @Sendable (WriteContext) throws -> T,
                      completion: @escaping @Sendable (Result<T, any Error>) -> Void) {
        self.solo = solo
        self.fail = { completion(.failure($0)) }
        self.perform = { context in
            do {
                let value = try body(context)
                return JobOutcome(error: nil) { commitError in
                    if let commitError {
                        completion(.failure(commitError))
                    } else {
                        completion(.success(value))
                    }
                }
            } catch {
                return JobOutcome(error: error) { _ in completion(.failure(error)) }
            }
        }
    }
}
