import CSQLite
import Foundation

/// Time limits on statements, through SQLite's progress handler.
///
/// A single `sqlite3_step` can run for a long time (an unindexed scan that finds nothing never returns a
/// row to check a clock between), so the limit is enforced inside SQLite: the progress handler runs every
/// `progressInterval` virtual-machine instructions and asks SQLite to interrupt once the deadline passed.
/// The statement then fails with `StorageError.interrupted`.
extension Database {
    /// VM instructions between deadline checks: small enough to react within about a millisecond, large
    /// enough that the check costs nothing measurable.
    static let progressInterval: Int32 = 10_000

    /// Runs `body` with every statement it executes on this connection limited to end by `seconds` from
    /// now; past that they fail with `StorageError.interrupted`. Nested calls keep the earlier deadline.
    public func withTimeLimit<T>(seconds: Double, _ body: () throws -> T) throws -> T {
        let deadline = DispatchTime.now().uptimeNanoseconds &+ UInt64(max(0, min(seconds, 86_400)) * 1e9)
        let box = DeadlineBox(deadline)
        let context = Unmanaged.passRetained(box)
        sqlite3_progress_handler(handle, Self.progressInterval, { raw in
            guard let raw else { return 0 }
            let box = Unmanaged<DeadlineBox>.fromOpaque(raw).takeUnretainedValue()
            return DispatchTime.now().uptimeNanoseconds >= box.deadline ? 1 : 0
        }, context.toOpaque())
        defer {
            sqlite3_progress_handler(handle, 0, nil, nil)
            context.release()
        }
        return try body()
    }
}

/// The deadline handed to SQLite's C callback.
private final class DeadlineBox {
    let deadline: UInt64
    init(_ deadline: UInt64) { self.deadline = deadline }
}
