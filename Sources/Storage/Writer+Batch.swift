import Foundation
import Logging

extension Writer {
    /// Retries of BEGIN/COMMIT after SQLITE_BUSY (on top of the connection's busy timeout). Only another
    /// process can hold the write lock (this one has a single writer), so these are rare and short.
    static let maxBusyRetries = 10

    /// A job that holds the writer longer than this is logged with its duration: every other write of every
    /// API waits behind it, and no request within the configured limits should take this long.
    static let slowJobSeconds = 0.1

    /// One group commit: BEGIN IMMEDIATE, each job inside its own SAVEPOINT, one COMMIT (one fsync),
    /// then completions and change events in job order on the completion queue.
    func runBatch(_ batch: [WriteJob]) {
        let started = DispatchTime.now().uptimeNanoseconds
        do {
            // IMMEDIATE takes the write lock up front, so no job can fail half-way on a lock upgrade. Both
            // BEGIN and COMMIT are cached statements: compiling them anew cost about as much as a small job.
            try withBusyRetry { try db.run("BEGIN IMMEDIATE") }
        } catch {
            logger.error("write batch could not begin", metadata: ["error": "\(error)", "jobs": "\(batch.count)"])
            completions.async { for job in batch { job.fail(error) } }
            return
        }

        var outcomes: [JobOutcome] = []
        outcomes.reserveCapacity(batch.count)
        var events: [ChangeEvent] = []
        var actions: [() -> Void] = []
        var lostTransaction: (any Error)?
        for job in batch {
            let context = WriteContext(db: db)
            let outcome = run(job, in: context)
            outcomes.append(outcome)
            guard db.isInTransaction else {
                // SQLite rolls the whole transaction back by itself after some errors (disk full, I/O,
                // out of memory); the jobs before this one are gone too.
                lostTransaction = outcome.error ?? StorageError.misuse("the shared transaction ended inside a job")
                break
            }
            if outcome.error == nil {
                events.append(contentsOf: context.events)
                actions.append(contentsOf: context.commitActions)
            }
        }

        if let lostTransaction {
            failAll(batch, outcomes: outcomes, error: lostTransaction)
            return
        }
        do {
            try withBusyRetry { try db.run("COMMIT") }
        } catch {
            if db.isInTransaction { try? db.execute("ROLLBACK") }
            failAll(batch, outcomes: outcomes, error: error)
            return
        }
        commits.add(1, ordering: .sequentiallyConsistent)

        for action in actions { action() }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds &- started) / 1e9
        observer?.batchCommitted(jobs: batch.count, seconds: seconds)
        let bus = self.bus
        let committed = outcomes
        let published = events
        completions.async {
            for outcome in committed { outcome.deliver(nil) }
            bus.publish(published)
        }
    }

    /// Runs one job inside SAVEPOINT quartet_job: released on success, rolled back to and released on
    /// failure so only this job's changes are undone.
    private func run(_ job: WriteJob, in context: WriteContext) -> JobOutcome {
        do {
            // run (a cached prepared statement), not execute: compiling these two statements again for
            // every job was a measurable part of a small job's cost on the single writer thread.
            try db.run("SAVEPOINT quartet_job")
        } catch {
            return JobOutcome(error: error) { _ in job.fail(error) }
        }
        let started = DispatchTime.now().uptimeNanoseconds
        let outcome = job.perform(context)
        noteJob(since: started, failed: outcome.error != nil)
        guard db.isInTransaction else {
            // The job's SQL (or SQLite after a fatal error) ended the shared transaction; runBatch fails
            // the whole batch with this error.
            let error = outcome.error
                ?? StorageError.misuse("a write job ended the shared transaction (COMMIT/ROLLBACK inside a job)")
            return JobOutcome(error: error) { _ in job.fail(error) }
        }
        if outcome.error == nil {
            do {
                try db.run("RELEASE quartet_job")
                return outcome
            } catch {
                rollbackJob()
                return JobOutcome(error: error) { _ in job.fail(error) }
            }
        }
        rollbackJob()
        return outcome
    }

    /// Reports how long a job's body held the writer, and logs the slow ones.
    private func noteJob(since started: UInt64, failed: Bool) {
        let seconds = Double(DispatchTime.now().uptimeNanoseconds &- started) / 1e9
        observer?.jobFinished(seconds: seconds, failed: failed)
        if seconds > Self.slowJobSeconds {
            logger.warning("a write job held the writer", metadata: [
                "milliseconds": "\(Int(seconds * 1000))", "failed": "\(failed)",
            ])
        }
    }

    private func rollbackJob() {
        // Both fail harmlessly when SQLite already ended the transaction; runBatch notices that.
        try? db.execute("ROLLBACK TO quartet_job")
        try? db.execute("RELEASE quartet_job")
    }

    /// The batch did not commit: every job gets `error` (its own error if its body failed), including the
    /// ones that never ran.
    private func failAll(_ batch: [WriteJob], outcomes: [JobOutcome], error: any Error) {
        if db.isInTransaction { try? db.execute("ROLLBACK") }
        logger.error("write batch rolled back", metadata: ["error": "\(error)", "jobs": "\(batch.count)"])
        let unrun = Array(batch.dropFirst(outcomes.count))
        completions.async {
            for outcome in outcomes { outcome.deliver(error) }
            for job in unrun { job.fail(error) }
        }
    }

    /// Runs `body`, retrying with exponential backoff (1 ms doubling, capped at 200 ms) while it fails
    /// with busy/locked.
    func withBusyRetry(_ body: () throws -> Void) throws {
        var attempt = 0
        while true {
            do {
                try body()
                return
            } catch let error as StorageError where error.isBusy && attempt < Self.maxBusyRetries {
                attempt += 1
                observer?.busyRetry()
                logger.debug("writer busy, retrying", metadata: ["attempt": "\(attempt)"])
                let millis = min(200, 1 << min(attempt, 8))
                usleep(UInt32(millis * 1000))
            }
        }
    }
}
