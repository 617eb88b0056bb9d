import Foundation
import Core

/// The `_users` database (spec §3.10): created at start-up, holding one document `org.couchdb.user:{name}`
/// per account.
enum UsersDatabase {
    /// Its name.
    static let name = DatabaseName.users

    /// Creates `_users` when it does not exist (Decision §3.10: automatic, so `PUT /_users` then answers 412).
    static func ensure(store: any CouchStore) throws {
        if try store.databaseExists(name) { return }
        _ = try store.createDatabase(name: name, createdMicros: Int64(Date().timeIntervalSince1970 * 1_000_000))
    }
}
