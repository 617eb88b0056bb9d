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
    /// Keys in the order they were first touched (deterministic checks and writes).
    public private(set) var order: [RecordKey] = []
    /// The touched records, in the order of `order`. The checks and the writes that follow the applier
    /// walk the two together instead of looking each key up again: a key's hash covers both of its strings,
    /// and a delta inserting one record looked its key up about twenty times.
    public private(set) var records: [TouchedRecord] = []
    /// Where each touched key sits in `order` and `records`.
    private var positions: [RecordKey: Int] = [:]

    /// Creates a working copy over `load`.
    public init(load: @escaping Loader) { self.load = load }

    /// The touched record of `key`, nil when the delta did not touch it.
    public subscript(key: RecordKey) -> TouchedRecord? {
        positions[key].map { records[$0] }
    }

    /// The touched keys with their records, in the order they were first touched.
    public var touched: Zip2Sequence<[RecordKey], [TouchedRecord]> { zip(order, records) }

    /// Where `key` is among the touched records, loading the stored record on first access.
    mutating func position(of key: RecordKey) throws -> Int {
        if let position = positions[key] { return position }
        let stored = try load(key)
        let position = records.count
        records.append(TouchedRecord(before: stored?.fields, beforeSize: stored?.size ?? 0,
                                     fields: stored?.fields, lastChange: -1))
        order.append(key)
        positions[key] = position
        return position
    }

    /// Whether the record at `position` exists now.
    func exists(at position: Int) -> Bool {
        records[position].fields != nil
    }

    /// The current fields of the record at `position` (nil when absent).
    func fields(at position: Int) -> JSONObject? {
        records[position].fields
    }

    /// Records that change `change` touched the record at `position` (its fields are set later).
    mutating func noteChange(at position: Int, change: Int) {
        records[position].lastChange = change
    }

    /// Replaces the fields of the record at `position`, keeping the change that last touched it.
    mutating func replaceFields(at position: Int, with fields: JSONObject?) {
        records[position].fields = fields
    }

    /// Replaces the fields of the record at `position`, as left by change `change`.
    mutating func set(at position: Int, _ fields: JSONObject?, change: Int) {
        records[position].fields = fields
        records[position].lastChange = change
    }
}
