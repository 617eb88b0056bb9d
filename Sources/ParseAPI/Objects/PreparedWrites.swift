import Core

/// The heavy part of writing a large object — parsing the stored text, applying the operations,
/// serializing the result — done on the request's worker thread before the write is queued, so that the
/// single writer, where every other write of every API waits, only checks and stores. For an object of
/// 16 MiB that part takes hundreds of milliseconds; small objects (below `threshold`) skip all this.
///
/// A preparation is made against a snapshot (the stored row for an update, the class schema for a create).
/// The write job uses it only when the snapshot is still current: the stored text byte for byte, the schema
/// equal. Otherwise the job refuses it with `StalePreparation` and the route prepares again; the last
/// attempt does the work in the job, as writes of small objects always do.
enum PreparedWrites {
    /// Objects (or create bodies) at least this large are prepared before they are queued: around this size
    /// the work is a few milliseconds.
    static let threshold = 64 << 10

    /// Attempts before the work is left to the write job.
    static let attempts = 3
}

/// A prepared write no longer matches what is stored: prepare again.
struct StalePreparation: Error {}

/// A create of a transactional `/batch`, parsed and computed before the batch's one job.
struct PreparedBatchCreate: Sendable {
    let className: String
    let request: WriteRequest
    let prepared: PreparedCreate
}

/// What a prepared write computed: the object's data after the operations, the echo of spec §6.6 and the
/// data serialized (within the size limit).
struct PreparedData: Sendable {
    let data: JSONObject
    let echo: JSONObject
    let text: String
}

/// A create computed before it is queued, for a class whose schema had the defaults and required fields
/// `rules` at the time. Only those shape the object, so fields added to the class since (by another write,
/// or by an earlier item of a transactional batch) do not make it stale.
struct PreparedCreate: Sendable {
    /// The fields with a default value or `required`, as the schema had them.
    let rules: [SchemaRule]

    /// A field's default value and `required` flag.
    struct SchemaRule: Sendable, Equatable {
        let name: String
        let defaultValue: JSON?
        let required: Bool
    }

    /// The rules of `schema` (none without a class).
    static func rules(of schema: ClassSchema?) -> [SchemaRule] {
        (schema?.fields ?? []).compactMap { name, def in
            def.defaultValue != nil || def.required ? SchemaRule(name: name, defaultValue: def.defaultValue, required: def.required) : nil
        }
    }

    /// True when the class's schema now makes the same object of the same operations.
    func isCurrent(for schema: ClassSchema?) -> Bool { Self.rules(of: schema) == rules }

    /// The data, or the Parse error the create ends with. An error is not answered at once: the job first
    /// makes the checks that come before it (reachability, CLP, schema types), as an unprepared create does.
    let outcome: Result<PreparedData, ParseError>

    /// What depends on the write alone, whatever the schema: the refusal of `WriteLimits.check` (nil: within
    /// the limits) and the types the write implies for the schema (`WriteRequest.schemaTypes`). Computed
    /// here so that the job, which must still check them against the schema of its moment, only looks
    /// each one up; for 1,000 creates of 499 fields in a transactional batch this was 40% of the job.
    let limitError: ParseError?
    let schemaTypes: [(field: String, type: FieldType)]

    /// Applies the operations of `w` and the schema's defaults, checks required fields and size.
    init(_ w: WriteRequest, schema: ClassSchema?, config: ParseConfig) {
        rules = Self.rules(of: schema)
        do {
            try WriteLimits.check(w, config)
            limitError = nil
        } catch {
            limitError = error as? ParseError ?? ParseError.internalError
        }
        schemaTypes = w.schemaTypes
        outcome = Result {
            var data = JSONObject()
            var echo = JSONObject()
            for (path, op) in w.operations where !op.isRelation {
                let value = try op.apply(to: nil, creating: true)
                data[path[0]] = value
                if op.echoed(onCreate: true) { echo[path[0]] = value ?? .null }
            }
            try ObjectWriter.applyDefaults(schema?.fields ?? [], to: &data, echo: &echo)
            return PreparedData(data: data, echo: echo, text: try ObjectWriter.serialized(data))
        }.mapError { $0 as? ParseError ?? ParseError.internalError }
    }
}

/// An update computed before it is queued, against the stored row `base`.
struct PreparedUpdate: Sendable {
    /// The row as it was read; the job compares the stored row with it.
    let base: StoredText
    /// `base` decoded, before the operations.
    let object: StoredObject
    /// The data after the operations, or the Parse error they end with (answered by the job once the caller
    /// is known to be allowed, so that it tells nothing about an object the caller may not write). Required
    /// fields are checked in the job, against the schema of that moment.
    let outcome: Result<PreparedData, ParseError>

    /// Applies the operations of `w` to the stored row `base`; nil when the row does not decode.
    init?(_ w: WriteRequest, base: StoredText) {
        guard let object = try? base.decoded() else { return nil }
        self.base = base
        self.object = object
        outcome = Result {
            var data = object.data
            let echo = try UpdatePaths(w.operations).apply(to: &data, schema: nil)
            return PreparedData(data: data, echo: echo, text: try ObjectWriter.serialized(data))
        }.mapError { $0 as? ParseError ?? ParseError.internalError }
    }

    /// True when `row` (read without its data, which compared `dataMatches`) is the row this was prepared from.
    func matches(_ row: StoredText, dataMatches: Bool) -> Bool {
        dataMatches && row.acl == base.acl && row.updatedAt == base.updatedAt && row.createdAt == base.createdAt
    }
}
