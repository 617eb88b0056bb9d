/// Query-planner statistics.
///
/// Without `sqlite_stat1` SQLite assumes an equality on an indexed column is selective, so a query such as
/// `class = ? AND json_extract(data,'$.rating') >= ? ORDER BY json_extract(data,'$.rating') LIMIT 20` walks
/// the whole class through its `(class, ...)` index and sorts, instead of using the expression index
/// declared for `rating` (hundreds of milliseconds instead of a fraction of one on 100,000 rows).
/// `ANALYZE` records how unselective `class` is; `analysis_limit` keeps it to sampling so it takes
/// milliseconds even on large tables and can run on the writer without stalling other writes.
extension Storage {
    /// Rows sampled per index by `refreshStatistics()`.
    public static let analysisRowLimit = 1000

    /// Refreshes `sqlite_stat1` (sampled `ANALYZE`) in a transaction of its own on the writer, then has the
    /// read connections reload it.
    public func refreshStatistics() throws {
        try writeAndWait(solo: true) { ctx in
            try ctx.db.execute("PRAGMA analysis_limit=\(Storage.analysisRowLimit); ANALYZE;")
        }
        readers.reloadStatistics()
    }
}
