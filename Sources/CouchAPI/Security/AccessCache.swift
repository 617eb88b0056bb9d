import Core

/// What authorization knows about one database (spec §2.8): its `_security` object and whether one of its
/// design documents has a `validate_doc_update` function (which cannot run, so writes by non-admins fail
/// closed).
struct DatabaseFacts: Sendable, Equatable {
    let security: SecurityObject
    let validatesUpdates: Bool
}

/// Per-database facts for authorization, remembered until the store's `AccessEpoch` moves, so that checking a
/// user's request costs a dictionary lookup, not a statement. The server admin's requests never come here.
final class AccessCache: Sendable {
    private struct Entry {
        let epoch: UInt64
        /// Nil: the database does not exist (treated as admin-only).
        let facts: DatabaseFacts?
    }

    /// Most databases remembered; past it the table starts over (a flood of names cannot grow memory).
    static let capacity = 4096

    private let store: any CouchStore
    private let entries = Locked<[String: Entry]>([:])

    init(store: any CouchStore) {
        self.store = store
    }

    /// The facts of `database`, nil when it does not exist.
    func facts(_ database: String) throws -> DatabaseFacts? {
        let epoch = store.accessEpoch.current
        if let entry = entries.withLock({ $0[database] }), entry.epoch == epoch { return entry.facts }
        // The epoch was read before the snapshot: a commit during the read leaves this entry already stale.
        let facts = try store.read { try $0.access(databaseNamed: database) }.map(Self.facts)
        entries.withLock { table in
            if table.count >= Self.capacity { table.removeAll(keepingCapacity: true) }
            table[database] = Entry(epoch: epoch, facts: facts)
        }
        return facts
    }

    static func facts(_ stored: StoredAccess) -> DatabaseFacts {
        DatabaseFacts(security: stored.security.map(SecurityObject.init(stored:)) ?? .empty,
                      validatesUpdates: stored.designBodies.contains(where: definesValidation))
    }

    /// Whether a design document body has a top-level `validate_doc_update` member (any value: it cannot run
    /// either way, and refusing is the safe side).
    static func definesValidation(_ body: [UInt8]) -> Bool {
        // A cheap scan first: most design bodies never mention the name.
        guard body.count >= 20, contains(body, Array("validate_doc_update".utf8)) else { return false }
        guard case .object(let object)? = try? CouchJSON.parse(body) else { return true }
        return object.contains("validate_doc_update")
    }

    private static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard let first = needle.first, haystack.count >= needle.count else { return false }
        var i = 0
        let last = haystack.count - needle.count
        while i <= last {
            if haystack[i] == first, haystack[i..<(i + needle.count)].elementsEqual(needle) { return true }
            i += 1
        }
        return false
    }
}
