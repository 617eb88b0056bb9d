import CSQLite
import Foundation

/// Time limits on statements, through SQLite's progress handler.
///
/// A single `sqlite3_step` can run for a long time (an unindexed scan that finds nothing never returns a
/// row to check a clock between), so the limit is enforced inside SQLite: the progress handler runs every
/// `progressInterval` virtual-machine instructions and asks SQLite to interrupt once the deadline passed.
/// The statement then fails with `StorageError.interrupted`.
extension Database {
    /// VM instructions between deadline checks. One instruction can take a millisecond (a `json_extract`
    /// or `instr` over a 1 MB value; a Parse scan of such rows measured 0.4-1.5 ms per row at 15-30
    /// instructions a row), so 10,000 of them could pass a deadline by seconds; at 1,000 a scan of large
    /// rows overruns by well under 100 ms, and the check (a clock reading) still costs nothing measurable.
    static let progressInterval: Int32 = 1_000

    /// Runs `body` with every statement it executes on this connection limited to end by `seconds` from
    /// now; past that they fail with `StorageError.interrupted`. Calls do not nest (an inner call's limit
    /// replaces the outer one and is removed when it returns).
    public func withTimeLimit<T>(seconds: Double, _ body: () throws -> T) throws -> T {
        let deadline = DispatchTime.now().uptimeNanoseconds &+ UInt64(max(0, min(seconds, 86_400)) * 1e9)
        return try withTimeLimit(untilUptimeNanoseconds: deadline, body)
    }

    /// `withTimeLimit(seconds:)` with an absolute deadline on `DispatchTime`'s uptime clock, so that a caller
    /// can give the statements what is left of a budget that began before them (the same deadline then
    /// also bounds the caller's own work between statements).
    public func withTimeLimit<T>(untilUptimeNanoseconds deadline: UInt64, _ body: () throws -> T) throws -> T {
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
