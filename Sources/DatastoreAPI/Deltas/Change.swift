import Core

/// Identifies one record of a datastore.
public struct RecordKey: Hashable, Sendable {
    /// Table ID.
    public let tid: String
    /// Record ID.
    public let rid: String
    /// Creates a key.
    public init(tid: String, rid: String) { self.tid = tid; self.rid = rid }
}

/// One validated change of a delta. Values keep the exact JSON received (number lexemes included).
public enum Change: Sendable, Equatable {
    /// `["I", tid, rid, {field: value}]`
    case insert(RecordKey, JSONObject)
    /// `["U", tid, rid, {field: fieldop}]`
    case update(RecordKey, [(field: String, op: FieldOp)])
    /// `["D", tid, rid]`
    case delete(RecordKey)

    /// The record the change addresses.
    public var key: RecordKey {
        switch self {
        case .insert(let k, _), .update(let k, _), .delete(let k): return k
        }
    }

    /// Equality over the tag, the key and the payload (field order included).
    public static func == (lhs: Change, rhs: Change) -> Bool {
        switch (lhs, rhs) {
        case let (.insert(a, x), .insert(b, y)): return a == b && x == y
        case let (.delete(a), .delete(b)): return a == b
        case let (.update(a, x), .update(b, y)):
            return a == b && x.count == y.count && zip(x, y).allSatisfy { $0.field == $1.field && $0.op == $1.op }
        default: return false
        }
    }
}

/// One field operation inside an update.
public enum FieldOp: Sendable, Equatable {
    /// `["P", value]`: set the field to an atom or a whole list.
    case put(JSON)
    /// `["D"]`: remove the field (no-op when absent).
    case delete
    /// `["LC"]`: create an empty list; the field must be absent.
    case listCreate
    /// `["LP", i, atom]`: replace item `i`.
    case listPut(Int, JSON)
    /// `["LI", i, atom]`: insert before position `i`.
    case listInsert(Int, JSON)
    /// `["LD", i]`: remove item `i`.
    case listDelete(Int)
    /// `["LM", from, to]`: move item `from` so that it ends at `to`.
    case listMove(Int, Int)
}
