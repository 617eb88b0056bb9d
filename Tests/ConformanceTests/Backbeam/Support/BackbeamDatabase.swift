import Foundation
import Storage

/// Direct access to a running test server's database: to check what is stored (sessions only as hashes), and
/// to write rows (a session, a social identity) the way the users endpoints store them, for tests that need
/// one without going through a login.
struct BackbeamDatabase {
    let path: String

    init(_ server: TestServer) {
        path = server.dataDirectory.appendingPathComponent("quartet.sqlite3").path
    }

    private func withDatabase<T>(_ body: (Database) throws -> T) throws -> T {
        let db = try Database(path: path)
        defer { db.close() }
        return try body(db)
    }

    private func space(_ db: Database, _ project: String, _ env: String) throws -> Int64 {
        try db.queryOne("SELECT id FROM bb_spaces WHERE project = ? AND env = ?", [.text(project), .text(env)])?[0].int64 ?? 0
    }

    private func seq(_ db: Database, _ space: Int64, _ id: String) throws -> Int64 {
        try db.queryOne("SELECT seq FROM bb_objects WHERE space = ? AND id = ?", [.integer(space), .text(id)])?[0].int64 ?? 0
    }

    /// A session of user `userID` whose code hashes to `hash`.
    func insertSession(hash: String, project: String, env: String = "dev", userID: String) throws {
        try withDatabase { db in
            let space = try space(db, project, env)
            try db.run("INSERT INTO bb_sessions (token_hash, space, object, created_at) VALUES (?, ?, ?, 0)",
                       [.text(hash), .integer(space), .integer(try seq(db, space, userID))])
        }
    }

    /// A social identity (`tw`, `fb`, `gp`, `ln`, `gh`) linked to user `userID`.
    func insertIdentity(provider: String, providerID: String, project: String, env: String = "dev", userID: String) throws {
        try withDatabase { db in
            let space = try space(db, project, env)
            try db.run("INSERT INTO bb_identities (space, provider, provider_id, object, linked_at) VALUES (?, ?, ?, ?, 0)",
                       [.integer(space), .text(provider), .text(providerID), .integer(try seq(db, space, userID))])
        }
    }

    /// Runs one query and returns its rows.
    func query(_ sql: String, _ args: [SQLValue] = []) throws -> [Row] {
        try withDatabase { db in try db.query(sql, args) }
    }
}
