/// The connection an I/O thread keeps in one read transaction for the rest of its event loop's pass
/// (`Storage.tryReadStatement`), and the writer's commit count read before that transaction's snapshot.
final class PassRead {
    let db: Database
    let commits: UInt64

    init(db: Database, commits: UInt64) {
        self.db = db
        self.commits = commits
    }
}
