import QueryKit

/// A query planned for a store, independent of its engine: the class, the conditions its objects must
/// meet, the order and the page. Built by `QueryRunner` (and the aggregate route) from a request; a store
/// renders it in its own language (the SQLite store: `Store/SQLiteQueryRenderer*.swift`).
///
/// Conditions are checked in the order given; the store adds creation order as the final sort key, so
/// that paging is stable.
struct QueryPlan: Sendable {
    var className: String
    /// Conditions, all of which must hold: the `where` first, then the caller's access terms (ACL,
    /// pointer permissions, a session's own user).
    var conditions: [QueryPredicate] = []
    /// Sort keys, most significant first.
    var order: [SortKey] = []
    /// Objects to return at most; nil for all of them.
    var limit: Int?
    /// Objects to leave out before the first returned one.
    var skip = 0

    init(className: String) { self.className = className }
}

/// One key of a query's order (spec §7.10).
enum SortKey: Sendable {
    /// The value of a field, or of one member of it (`iso` of a Date, `objectId` of a Pointer).
    case field(FieldRef, member: String?, descending: Bool)
    /// Full-text relevance of `$text`, best first (spec §7.8: either sign sorts best first).
    case textScore(TextSearch)
    /// Distance of a GeoPoint field from a point, nearest first (`$nearSphere`'s default order, §7.7).
    case distance(FieldRef, GeoPoint)
}

/// An inner query (`$inQuery`, `$notInQuery`, `$select`, `$dontSelect`): the objects of another class
/// that meet a condition and that the caller may read, and which of their values the outer query uses.
struct Subquery: Sendable {
    /// The inner class; its name is validated.
    let className: String
    /// The inner `where`.
    let predicate: QueryPredicate
    /// The caller's access terms on the inner class (ACL read, pointer permissions), all of which hold.
    let access: [QueryPredicate]
    /// The value selected from each inner object: `objectId` for `$inQuery`, the `key` of `$select`.
    let key: FieldRef
}

/// The ACL names a reader matches (spec §5.2): `*`, the user's id, `role:<name>` for each role.
enum ReaderGroup: Sendable, Equatable {
    /// A caller without a user or roles (most reads of a public app): just `*`.
    case everyone
    /// Any other caller's names, `*` first.
    case names([String])

    init(_ caller: Caller) {
        self = caller.userId == nil && caller.roles.isEmpty ? .everyone : .names(caller.aclGroup)
    }

    var names: [String] {
        switch self {
        case .everyone: return ["*"]
        case .names(let n): return n
        }
    }
}

/// A `$text` search (spec §7.8) on one String field with a full-text index, in MongoDB `$search` terms.
struct TextSearch: Sendable, Equatable {
    let className: String
    let field: String
    /// Plain words: at least one must occur.
    let words: [String]
    /// "Quoted phrases": each must occur.
    let phrases: [String]
    /// -words: none may occur.
    let excluded: [String]
}

/// A point on the sphere, in degrees.
struct GeoPoint: Sendable, Equatable {
    let latitude: Double
    let longitude: Double
}

/// One key of a declared index (spec §14.5): what a `where` or `order` on that field compares.
struct IndexKey: Sendable, Equatable {
    enum Target: Sendable, Equatable {
        case column(Column)
        /// A path into the stored object (`["when", "iso"]` for a Date field).
        case path([String])
    }

    let target: Target
    let descending: Bool
}
