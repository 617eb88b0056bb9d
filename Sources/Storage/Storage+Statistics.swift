/// Query-planner statistics.
///
/// Without `sqlite_stat1` SQLite assumes an equality on an indexed column is selective, so a query such as
/// `class = ? AND json_extract(data,'$.rating') >= ? ORDER BY json_extract(data,'$.rating') LIMIT 20` walks
/// the whole class through a `(class, ...)` index and sorts, instead of using the expression index declared
/// for `rating` (hundreds of milliseconds instead of a fraction of one on 100,000 rows).
///
/// The statistics are exact (`ANALYZE` without `analysis_limit`): sampling reads only the first rows of each
/// index, which for a low-cardinality leading column such as `class` records "about as many rows as were
/// sampled" and misleads the planner the other way. A full pass costs ~50 ms per 100,000 rows on the writer,
/// which is why it runs at start, after index changes and on a slow timer only.
extension Storage {
    /// Refreshes `sqlite_stat1` in a transaction of its own on the writer, then has the read connections
    /// reload it.
    public func refreshStatistics() throws {
        try writeAndWait(solo: true) { ctx in
            try ctx.db.execute("PRAGMA analysis_limit=0; ANALYZE;")
        }
        readers.reloadStatistics()
        lookups.reloadStatistics()
        immediate.reloadStatistics()
    }
}
