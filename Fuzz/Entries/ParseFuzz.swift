import Foundation
import Logging
import Core
import Storage
@testable import ParseAPI

/// Harness for the Parse `where` compiler and its SQL rendering, against a migrated database (subqueries
/// and schemas are read through a real transaction).
enum ParseFuzz {
    /// The input is the `where` JSON text. It is compiled twice: on `_User` as a public caller for whom
    /// `email` is protected, and on a class without schema as the master key. Refusals are Parse errors;
    /// any other error type is a violation.
    static func compileWhere(_ input: [UInt8], workDirectory: String) -> FuzzOutcome {
        let object: JSONObject
        do throws(JSONError) {
            guard let parsed = try JSONParser.parse(input).objectValue else { return .refused("where is not an object") }
            object = parsed
        } catch {
            return .refused(error.description)
        }
        let store: SQLiteParseStore
        do {
            store = try ParseFuzzDatabase.store(in: workDirectory)
        } catch {
            return .violated("fuzz database could not be opened: \(error)")
        }
        var outcomes: [FuzzOutcome] = []
        for (className, caller, protected) in [("_User", Caller.publicCaller, Set(["email"])), ("C", Caller.master, Set<String>())] {
            do {
                _ = try store.read { tx in
                    var compiler = WhereCompiler(className: className, schema: try Schemas.load(className, tx), caller: caller,
                                                 protectedFields: protected, tx: tx, config: ParseConfig())
                    var renderer = SQLiteQueryRenderer()
                    return renderer.condition(try compiler.compile(object))
                }
                outcomes.append(.accepted)
            } catch let error as ParseError {
                outcomes.append(.refused("\(error)"))
            } catch {
                outcomes.append(.violated("\(type(of: error)): \(error)"))
            }
        }
        return FuzzOutcome.all(outcomes)
    }
}

/// One migrated database per work directory, opened on first use and kept for the process's life (a
/// fuzzing run calls the harness millions of times).
enum ParseFuzzDatabase {
    private final class Stores: @unchecked Sendable {
        let lock = NSLock()
        var byDirectory: [String: (Storage, SQLiteParseStore)] = [:]
    }
    private static let stores = Stores()

    static func store(in directory: String) throws -> SQLiteParseStore {
        stores.lock.lock()
        defer { stores.lock.unlock() }
        if let (_, store) = stores.byDirectory[directory] { return store }
        var logger = Logger(label: "fuzz")
        logger.logLevel = .critical
        let storage = try Storage(options: StorageOptions(path: directory + "/parse-where.db"), logger: logger)
        let migrations = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Migrations").path
        try Migrator.migrate(storage, migrations: try Migrator.load(directory: migrations))
        let store = SQLiteParseStore(storage: storage)
        stores.byDirectory[directory] = (storage, store)
        return store
    }

    /// Closes the database opened for `directory` (the replay tests call it before removing the directory).
    static func close(_ directory: String) {
        stores.lock.lock()
        defer { stores.lock.unlock() }
        stores.byDirectory.removeValue(forKey: directory)?.0.close()
    }
}
