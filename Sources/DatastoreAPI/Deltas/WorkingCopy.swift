import Core

/// A record touched by a delta: its state before the delta and after the changes applied so far.
public struct TouchedRecord: Sendable {
    /// Fields before the delta (nil when the record did not exist).
    public let before: JSONObject?
    /// Accounted size before the delta (0 when absent).
    public let beforeSize: Int
    /// Fields now (nil when the record does not exist now).
    public var fields: JSONObject?
    /// Index of the last change that touched the record (named in size errors).
    public var lastChange: Int
}

/// The records a delta touches, loaded on first use from the stored snapshot, changed in memory only.
/// Nothing reaches storage until the whole delta has applied and passed every check.
public struct WorkingCopy {
    /// Loads a stored record's fields and size, or nil when it does not exist.
    public typealias Loader = (RecordKey) throws -> (fields: JSONObject, size: Int)?

    private let load: Loader
    /// Touched records by key.
    public private(set) var touched: [RecordKey: TouchedRecord] = [:]
    /// Keys in the order they were first touched (deterministic checks and writes).
    public private(set) var order: [RecordKey] = []

    /// Creates a working copy over `load`.
    public init(load: @escaping Loader) { self.load = load }

    /// The current fields of `key` (nil when absent), loading the stored record on first access.
    mutating func current(_ key: RecordKey) throws -> JSONObject? {
        if let record = touched[key] { return record.fields }
        let stored = try load(key)
        touched[key] = TouchedRecord(before: stored?.fields, beforeSize: stored?.size ?? 0,
                                     fields: stored?.fields, lastChange: -1)
        order.append(key)
        return stored?.fields
    }

    /// Replaces the fields of a record already loaded by `current`.
    mutating func set(_ key: RecordKey, _ fields: JSONObject?, change: Int) {
        touched[key]?.fields = fields
        touched[key]?.lastChange = change
    }
}
