import Core
import Foundation

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
    private let entries = Locked<[String: (stored: Stored, schema: ClassSchema)]>([:])

    /// The schema decoded earlier from exactly `stored`, if any.
    func schema(_ className: String, _ stored: Stored) -> ClassSchema? {
        entries.withLock { entries in
            guard let entry = entries[className], entry.stored == stored else { return nil }
            return entry.schema
        }
    }

    /// The schema decoded earlier from stored columns equal to these bytes (SQLite's row buffers), if
    /// any: read on every request, so no `String` is made for the comparison.
    func schema(_ className: String, fields: UnsafeBufferPointer<UInt8>?, clp: UnsafeBufferPointer<UInt8>?,
                indexes: UnsafeBufferPointer<UInt8>?) -> ClassSchema? {
        entries.withLock { entries in
            guard let entry = entries[className], Self.equal(entry.stored.fields, fields),
                  Self.equal(entry.stored.clp, clp), Self.equal(entry.stored.indexes, indexes) else { return nil }
            return entry.schema
        }
    }

    private static func equal(_ text: String?, _ bytes: UnsafeBufferPointer<UInt8>?) -> Bool {
        guard let text, let bytes else { return text == nil && bytes == nil }
        var copy = text
        return copy.withUTF8 { utf8 in
            guard utf8.count == bytes.count else { return false }
            guard let a = utf8.baseAddress, let b = bytes.baseAddress else { return true }
            return memcmp(a, b, bytes.count) == 0
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
