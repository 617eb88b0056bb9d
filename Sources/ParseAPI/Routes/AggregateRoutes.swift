import Core
import QueryKit

/// `/aggregate/:className` (master key only, spec §17): `distinct` and the pipeline subset.
enum AggregateRoutes {
    static func register(_ t: inout RouteTable) {
        t.add(.get, "/aggregate/:className", RouteOptions(masterOnly: true)) { c in try aggregate(c, c.params) }
        // Parse-Swift posts aggregate bodies without `_method` (spec §17 Decision).
        t.add(.post, "/aggregate/:className", RouteOptions(masterOnly: true)) { c in
            var params = c.body
            for (k, v) in c.params { params[k] = v }
            return try aggregate(c, params)
        }
    }

    /// Documents beyond this many make the request fail instead of exhausting memory.
    static let maxDocuments = 200_000

    static func aggregate(_ c: ParseContext, _ input: JSONObject) throws -> ParseReply {
        let cls = c.param("className")
        try FieldNames.checkClassName(cls)
        var params = input
        for k in ["hint", "explain", "comment", "readPreference", "includeReadPreference"] { params[k] = nil }
        var whereClause = try params["where"].map(QueryOptions.parseWhere) ?? JSONObject()
        let caller = c.caller, config = c.config, url = c.serverURL, appId = c.app.appId
        // Both forms read every matching object of the class: heavy reads, within the query time budget.
        let deadline = Deadline.after(seconds: config.queryTimeoutSeconds)
        if let d = params["distinct"] {
            guard let field = d.stringValue, QueryOptions.isKeyPath(field) else { throw ParseError(102, "Invalid distinct field.") }
            let values = try c.readHeavy(deadline: deadline) { tx in
                try distinct(tx, cls, field, whereClause, caller: caller, config: config, deadline: deadline)
            }
            return .ok(["results": .array(values)])
        }
        let pipeline = try AggregatePipeline.parse(params)
        var skipFirst = false
        if let m = pipeline.leadingMatch {
            for (k, v) in m { whereClause[k] = v }
            skipFirst = true
        }
        let base = whereClause
        let docs = try c.readHeavy(deadline: deadline) { tx -> [JSONObject] in
            var out: [JSONObject] = []
            try stream(tx, cls, base, caller: caller, config: config, deadline: deadline) { o, access in
                var renderer = ObjectRenderer(serverURL: url, appId: appId, schema: access.schema)
                renderer.protectedFields = access.protectedFields(for: o)
                out.append(renderer.render(o))
                if out.count > maxDocuments { throw ParseError(102, "Too many documents for an aggregate pipeline.") }
            }
            return out
        }
        return .ok(["results": .array(try pipeline.run(docs, skippingFirst: skipFirst).map { .object($0) })])
    }

    /// Streams the objects matching `where` in creation order, read with the caller's rights of a find
    /// (`ClassReadAccess`; the routes are master-only, so in practice everything), after checking `readKey`,
    /// a field whose values the caller reads, as a `where` key. Everything ends with 124 at `deadline`.
    static func stream(_ tx: any ParseTransaction, _ cls: String, _ w: JSONObject, caller: Caller, config: ParseConfig,
                       deadline: Deadline, readKey: String? = nil,
                       _ body: (StoredObject, ClassReadAccess) throws -> Void) throws {
        guard let schema = try Schemas.load(cls, tx) else { return }
        let access = ClassReadAccess(className: cls, schema: schema, caller: caller, config: config, operation: "find")
        try access.require()
        if let readKey { try access.keys.check(readKey) }
        var compiler = WhereCompiler(className: cls, schema: schema, caller: caller, protectedFields: access.protected,
                                     tx: tx, config: config)
        var query = QueryPlan(className: cls)
        query.conditions = [try compiler.compile(w)] + access.terms
        let residual = compiler.residual
        var budget = RegexBudget(deadline: deadline)
        try tx.withTimeLimit(until: deadline) {
            try tx.stream(query) { o in
                if deadline.hasPassed { throw ParseError.queryTimedOut }
                if try residual.allMatch(o, budget: &budget) { try body(o, access) }
                return true
            }
        }
    }

    /// Distinct non-null values (array elements counted individually), sorted ascending (spec §17.1).
    static func distinct(_ tx: any ParseTransaction, _ cls: String, _ field: String, _ w: JSONObject,
                         caller: Caller, config: ParseConfig, deadline: Deadline) throws -> [JSON] {
        var seen: Set<String> = []
        var values: [JSON] = []
        let path = JSONPath(field.split(separator: ".").map(String.init))
        try stream(tx, cls, w, caller: caller, config: config, deadline: deadline, readKey: field) { o, _ in
            var v = path.value(in: o.data)
            if path.segments == ["createdAt"] { v = ["__type": "Date", "iso": .string(o.createdAt)] }
            if path.segments == ["updatedAt"] { v = ["__type": "Date", "iso": .string(o.updatedAt)] }
            if path.segments == ["objectId"] { v = .string(o.objectId) }
            let items: [JSON] = v?.arrayValue ?? (v.map { [$0] } ?? [])
            for item in items where !item.isNull {
                let key = item.serialized(sortedKeys: true)
                if seen.insert(key).inserted {
                    values.append(item)
                    if values.count > maxDocuments { throw ParseError(102, "Too many distinct values.") }
                }
            }
        }
        return values.sorted(by: AggregateValues.less)
    }
}
