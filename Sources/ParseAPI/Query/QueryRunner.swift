import Core
import QueryKit

/// Runs a find (spec §7) in its steps: the class and the caller's rights on it, the plan (the `where`
/// compiled, access terms, order, page), the store's execution (with residual filters when there are
/// any), then rendering with `keys`/`excludeKeys`/`include`.
struct QueryRunner {
    let tx: any ParseTransaction
    let caller: Caller
    let config: ParseConfig
    let serverURL: String
    let appId: String

    struct Output {
        var results: [JSONObject]
        var count: Int?
        /// Set instead of `results` when the caller asked for serialized objects and the query allows them:
        /// the objects' JSON separated by commas.
        var serialized: [UInt8]?
    }

    /// Ask for the results as serialized objects (`Output.serialized`) when nothing about the query or the
    /// class changes how stored objects render: they are then written from their stored text without
    /// being parsed (`PlainObjectBytes`). Callers that go on to change the results leave this off.
    var serializedResults = false

    /// The caller's clear session token, shown on their own session only (spec §3.5).
    var currentToken: String?

    /// When the query's time budget (spec §7.11) ends; nil to start `parse.queryTimeout` when `find` begins.
    /// A route sets it before it waits for anything on the query's behalf, so that the wait counts.
    var deadline: Deadline?

    /// The query's place among the heavy reads, taken when the plan turns out heavy (`QueryCost`); nil
    /// where slow queries share nothing (a transactional batch).
    var heavyReads: HeavyReadAdmission?

    /// The class a find reads: the one named, or the target of `redirectClassNameForKey`'s relation.
    struct Target {
        let className: String
        let schema: ClassSchema?
        let redirected: Bool
    }

    /// What the caller may do and see on the target class: the same decision as for every other path that
    /// reads a class (subqueries, includes, `$relatedTo`), with the outcome of `count` folded in.
    typealias Access = ClassReadAccess

    /// A find planned for the store, with what the store does not evaluate.
    struct FindPlan {
        var query: QueryPlan
        /// Conditions checked on the streamed candidates (the store selects a superset).
        let residual: [ResidualFilter]
        /// The `$text` search, for `$score`.
        let textSearch: TextSearch?
    }

    func find(_ className: String, _ q: QueryOptions, op: String = "find") throws -> Output {
        let deadline = self.deadline ?? Deadline.after(seconds: config.queryTimeoutSeconds)
        let target = try resolve(className, q)
        let access = try checkAccess(target, q, op: op)
        let planned = try plan(target, q, access)
        guard target.schema != nil else {
            return Output(results: [], count: q.count ? 0 : nil, serialized: serializedResults ? [] : nil)
        }
        if let heavyReads, QueryCost.isHeavy(planned, schema: target.schema, counts: q.count) { try heavyReads.enterNow() }
        let plain = servesPlain(target, q, access, planned)
        let fetched = try execute(planned, q, plain: plain, schema: target.schema, deadline: deadline)
        if plain { return Output(results: [], count: fetched.count, serialized: fetched.serialized) }
        let projection = projection(target, q, access)
        var results = render(fetched.objects, target, projection, access)
        try addScores(&results, planned, q, objects: fetched.objects)
        try include(&results, projection)
        return Output(results: results, count: fetched.count)
    }

    /// Step 1: the class, its schema, and whether the caller may reach it at all.
    func resolve(_ className: String, _ q: QueryOptions) throws -> Target {
        try FieldNames.checkClassName(className)
        let schema = try Schemas.load(className, tx)
        var target = Target(className: className, schema: schema, redirected: false)
        if let key = q.redirectClassNameForKey, case .relation(let related)? = schema?.field(key)?.type {
            target = Target(className: related, schema: try Schemas.load(related, tx), redirected: true)
        }
        return target
    }

    /// Step 2: whether the caller may read the class at all (system-class rules, class existence, the
    /// class-level permissions of the operation and of `count`), and the protected fields.
    func checkAccess(_ target: Target, _ q: QueryOptions, op: String) throws -> Access {
        let needsFind = !(q.count && q.limit == 0)
        var access = ClassReadAccess(className: target.className, schema: target.schema, caller: caller, config: config,
                                     operation: needsFind ? op : nil)
        try access.require()
        if q.count {
            let c = try CLP.check("count", className: target.className, schema: target.schema, caller: caller)
            if case .pointerRestricted = c { access.outcome = c }
        }
        return access
    }

    /// Step 3: the plan. The `where` first, then the caller's access terms; the order, then the page.
    func plan(_ target: Target, _ q: QueryOptions, _ access: Access) throws -> FindPlan {
        var compiler = WhereCompiler(className: target.className, schema: target.schema, caller: caller,
                                     protectedFields: access.protected, tx: tx, config: config)
        var query = QueryPlan(className: target.className)
        query.conditions.append(try compiler.compile(q.whereClause))
        query.conditions += access.terms
        query.order = try sortKeys(q.order, target, keys: access.keys, textSearch: compiler.textSearch)
        if q.order.isEmpty, let (ref, point) = compiler.nearOrder { query.order.append(.distance(ref, point)) }
        query.limit = q.limit
        query.skip = q.skip
        return FindPlan(query: query, residual: compiler.residual, textSearch: compiler.textSearch)
    }

    /// The sort keys of `order` (spec §7.10); creation order is the store's final tie-breaker.
    func sortKeys(_ entries: [String], _ target: Target, keys rules: QueryKeyRules, textSearch: TextSearch?) throws -> [SortKey] {
        var keys: [SortKey] = []
        for entry in entries {
            let descending = entry.hasPrefix("-")
            let key = descending ? String(entry.dropFirst()) : entry
            if key == "$score" {
                if let textSearch { keys.append(.textScore(textSearch)) }
                continue
            }
            let path = key.split(asciiByte: UInt8(ascii: ".")).map(String.init)
            guard let first = path.first else { continue }
            // An order is an oracle for the key's values, so it takes the rules of a `where` key.
            try rules.check(key, first: first)
            let ref = FieldRef(path: path, schema: target.schema)
            let member: String?
            switch ref.type {
            case .date?: member = "iso"
            case .pointer?: member = "objectId"
            default: member = nil
            }
            keys.append(.field(ref, member: member, descending: descending))
        }
        return keys
    }

    /// Step 4: whether the stored text of the objects can be the answer as it is: nothing about the query
    /// or the class changes how they render (see `ObjectRenderer`).
    func servesPlain(_ target: Target, _ q: QueryOptions, _ access: Access, _ planned: FindPlan) -> Bool {
        serializedResults && planned.residual.isEmpty && !target.redirected && q.keys == nil
            && q.excludeKeys.isEmpty && q.include.isEmpty && !q.includeAll && access.protected.isEmpty
            && access.protectedLists.userFields.isEmpty && !target.className.hasPrefix("_") && planned.textSearch == nil
            && ObjectRenderer.addsNoFields(target.schema)
    }
}
