import Synchronization

/// Decoded class schemas keyed by the exact stored text they came from.
///
/// Every request reads its class schema inside its own transaction (so it always sees the schema of its
/// snapshot, and a write sees its own changes); only the JSON decoding is skipped when the stored text is
/// the one decoded before. Because the key is the text itself, an entry can never be stale: a changed
/// schema has different text and is decoded afresh.
final class SchemaDecodeCache: Sendable {
    /// The stored columns a schema is decoded from.
    struct Stored: Equatable, Sendable {
        var fields: String?
        var clp: String?
        var indexes: String?
    }

    static let shared = SchemaDecodeCache()

    /// Class names are client-chosen (clients may create classes), so the cache is bounded; when full it
    /// starts over, which only costs decoding again.
    private let capacity = 512
    private let entries = Mutex<[String: (stored: Stored, schema: ClassSchema)]>([:])

    /// The schema decoded earlier from exactly `stored`, if any.
    func schema(_ className: String, _ stored: Stored) -> ClassSchema? {
        entries.withLock { entries in
            guard let entry = entries[className], entry.stored == stored else { return nil }
            return entry.schema
        }
    }

    /// How many schemas are held.
    var count: Int { entries.withLock { $0.count } }

    /// Remembers `schema` as the decoding of `stored`.
    func store(_ schema: ClassSchema, _ stored: Stored) {
        entries.withLock { entries in
            if entries.count >= capacity && entries[schema.className] == nil { entries.removeAll(keepingCapacity: true) }
            entries[schema.className] = (stored, schema)
        }
    }
}
