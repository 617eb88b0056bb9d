import Core

/// The pieces the data endpoints share: the entity and id in the path, the BQL of `q`/`joins` with its
/// `params`, and the page window (§5.1, §5.2.8).
struct DataParameters {
    let service: ServiceContext
    let call: BackbeamCall

    /// The `:entity` segment: an entity id (§4.1), declared when the schema is strict; else 404
    /// `EntityNotFound` before anything runs.
    func entity() throws -> String {
        guard let entity = Self.entity(of: call) else { throw BackbeamError(.entityNotFound) }
        return entity
    }

    /// The `:id` segment; anything but an object id is 404 `ObjectNotFound` (§4.1).
    func objectID() throws -> String {
        guard let id = Self.objectID(of: call) else { throw BackbeamError(.objectNotFound) }
        return id
    }

    /// `entity()` without the error, and without a `DataParameters` (a copy of the call) to hold it: for
    /// the point read answered on the I/O thread.
    static func entity(of call: BackbeamCall) -> String? {
        let entity = call.path("entity")
        guard Identifiers.isEntityID(entity), call.project.schema?.allows(entity: entity) ?? true else { return nil }
        return entity
    }

    /// `objectID()` without the error, as `entity(of:)`.
    static func objectID(of call: BackbeamCall) -> String? {
        let id = call.path("id")
        return Identifiers.isObjectID(id) ? id : nil
    }

    /// `q` (a whole query) with `params`. A text parsed before is not parsed again (texts that do not
    /// parse are not kept: each gets its error again).
    func query() throws -> BQLBoundQuery {
        let q = call.parameters.value("q") ?? ""
        let parsed: BQLQuery
        if let known = service.parsedQueries.get(q) {
            parsed = known
        } else {
            parsed = try BQLParser.parse(q, limits: service.bqlLimits)
            service.parsedQueries.put(q, parsed)
        }
        return try BQLBoundQuery.bind(parsed, params: params(), limits: service.bqlLimits)
    }

    /// `joins` (join clauses only) with `params`; nil without joins.
    func joins(_ name: String = "joins") throws -> BQLBoundQuery? {
        guard let text = call.parameters.value(name), !text.trimmingSpaces().isEmpty else { return nil }
        return try BQLBoundQuery.bind(try BQLParser.parseJoins(text, limits: service.bqlLimits), params: params(),
                                      limits: service.bqlLimits)
    }

    func params() -> [String] { call.parameters.values("params") }

    /// `limit` of a query (§5.1): missing, non-numeric, negative or above `maxLimit` → `maxLimit`; 0 stays 0.
    func limit() -> Int {
        guard let n = Self.decimal(call.parameters.value("limit")), n <= service.config.maxLimit else {
            return service.config.maxLimit
        }
        return n
    }

    /// `offset`: missing, non-numeric or negative → 0.
    func offset() -> Int { Self.decimal(call.parameters.value("offset")) ?? 0 }

    /// `limit` of remove-by-query (§5.2.8): `all`, missing, non-numeric, negative or ≥ 1,000,000 means no
    /// limit (iOS sends a pointer formatted with `%zd` for "remove all").
    func removeLimit() -> Int? {
        guard let n = Self.decimal(call.parameters.value("limit")), n < 1_000_000 else { return nil }
        return n
    }

    /// A non-negative decimal integer (ASCII digits only), saturating instead of overflowing; nil otherwise.
    static func decimal(_ text: String?) -> Int? {
        guard let text, !text.isEmpty, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
            return nil
        }
        var value = 0
        for b in text.utf8 {
            let (times, o1) = value.multipliedReportingOverflow(by: 10)
            let (sum, o2) = times.addingReportingOverflow(Int(b - UInt8(ascii: "0")))
            if o1 || o2 { return Int.max }
            value = sum
        }
        return value
    }

    /// A coordinate parameter in `range`; missing or invalid → 400 `InvalidParameters`.
    func coordinate(_ name: String, _ range: ClosedRange<Double>) throws -> Double {
        guard let text = call.parameters.value(name), let value = FieldValues.number(text), range.contains(value) else {
            throw BackbeamError(.invalidParameters, "The \(name) parameter is missing or out of range")
        }
        return value
    }
}
