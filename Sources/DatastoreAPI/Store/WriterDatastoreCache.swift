import Synchronization

/// Datastore rows (`ds_datastore` with the owner's name) as the writer last committed them, so that a
/// `put_delta` does not read its datastore's row from the database before changing it: with one row
/// read, checked and rewritten per delta, the read was about a quarter of a delta's work on the writer.
///
/// Only write jobs use it, one at a time on the writer thread. A job that changes a row removes its entry
/// at once (later jobs of the same transaction read the row itself, with this job's change) and stores the
/// new row with `WriteContext.afterCommit`, which runs only once the transaction committed, in job order;
/// a job or transaction that fails stores nothing, so the entry stays absent until the row is read again.
final class WriterDatastoreCache: Sendable {
    /// Handles are created by clients, so the cache is bounded; when full it starts over.
    static let capacity = 4096
    private let records = Mutex<[String: DatastoreRecord]>([:])

    /// The committed row of `handle`, when known.
    func record(_ handle: String) -> DatastoreRecord? {
        records.withLock { $0[handle] }
    }

    /// Remembers a committed (or just read) row.
    func store(_ record: DatastoreRecord) {
        records.withLock { records in
            if records.count >= Self.capacity && records[record.handle] == nil { records.removeAll(keepingCapacity: true) }
            records[record.handle] = record
        }
    }

    /// Forgets `handle` (its row is changing).
    func remove(_ handle: String) {
        _ = records.withLock { $0.removeValue(forKey: handle) }
    }
}
