import Core
import QueryKit
import Foundation

/// Runs a find (spec §7): CLP, `where` compilation, ACL and pointer-permission filters, order, paging,
/// count, then rendering with `keys`/`excludeKeys`/`include`.
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

    func find(_ className: String, _ q: QueryOptions, op: String = "find", extra: ((inout CompiledQuery) -> Void)? = nil)
        throws -> Output {
        try FieldNames.checkClassName(className)
        var targetClass = className
        var opts = q
        var redirected = false
        let schema0 = try Schemas.load(className, tx)
        if let key = q.redirectClassNameForKey, case .relation(let target)? = schema0?.field(key)?.type {
            targetClass = target
            redirected = true
        }
        let schema = redirected ? try Schemas.load(targetClass, tx) : schema0
        try Schemas.requireReachable(schema, className: targetClass, caller: caller, config: config)
        let needsFind = !(q.count && q.limit == 0)
        var outcome = CLP.Outcome.allowed
        if needsFind { outcome = try CLP.check(op, className: targetClass, schema: schema, caller: caller) }
        if q.count {
            let c = try CLP.check("count", className: targetClass, schema: schema, caller: caller)
            if case .pointerRestricted = c { outcome = c }
        }
        let lists = CLP.protectedLists(className: targetClass, schema: schema, caller: caller, serverWide: config.protectedFields)
        let protected = lists.base ?? []
        var compiler = WhereCompiler(className: targetClass, schema: schema, caller: caller, protectedFields: protected,
                                     tx: tx, config: config)
        let cond = try compiler.compile(opts.whereClause)
        var cq = CompiledQuery(className: targetClass)
        cq.add(cond, compiler.args)
        if let (acl, group) = WhereCompiler.aclCondition(caller) { cq.add(acl, [group]) }
        if case .pointerRestricted(let fields) = outcome { PointerPermissions.pointerCondition(fields, userId: caller.userId, into: &cq) }
        if targetClass == "_Session" && !caller.readsAsMaster {
            cq.add("\(SQLPath.extract(path: ["user", "objectId"])) = ?", [.text(caller.userId ?? "")])
        }
        extra?(&cq)
        try order(&cq, opts.order, schema: schema, protected: protected, textSearch: compiler.textSearch)
        if opts.order.isEmpty, let (expr, nearArgs) = compiler.nearOrder {
            cq.order.append(expr + " ASC")
            cq.orderArgs += nearArgs
        }
        guard schema != nil else { return Output(results: [], count: q.count ? 0 : nil, serialized: serializedResults ? [] : nil) }
        // Everything ObjectRenderer could change besides what the stored text itself shows.
        let plain = serializedResults && compiler.residual.isEmpty && !redirected && q.keys == nil
            && q.excludeKeys.isEmpty && q.include.isEmpty && !q.includeAll && protected.isEmpty
            && lists.userFields.isEmpty && !targetClass.hasPrefix("_") && compiler.textSearch == nil
            && ObjectRenderer.addsNoFields(schema)

        var objects: [StoredObject] = []
        var serialized: [UInt8] = []
        var count: Int?
        // The time budget (spec §7.11) holds inside SQLite too: a long single step (an unindexed scan that
        // matches nothing) is interrupted there and answered with 124.
        try tx.withTimeLimit(seconds: config.queryTimeoutSeconds) {
        if compiler.residual.isEmpty {
            if !(q.count && q.limit == 0) {
                cq.limit = opts.limit
                cq.skip = opts.skip
                if plain {
                    serialized.reserveCapacity(4096)
                    let plainRenderer = ObjectRenderer(serverURL: serverURL, appId: appId, schema: schema)
                    try tx.runPlain(cq, into: &serialized) { text in
                        JSON.object(plainRenderer.render(try text.decoded())).serializedBytes()
                    }
                } else {
                    objects = try tx.run(cq)
                }
            }
            if q.count { count = try tx.runCount(cq) }
        } else {
            // Rows are streamed and checked by the regex engine; paging and count are exact.
            var matched = 0, seen = 0
            let residual = compiler.residual
            // The time budget (spec §7.11) is checked between streamed rows.
            let deadline = Date().addingTimeInterval(config.queryTimeoutSeconds)
            try tx.stream(cq) { o in
                seen += 1
                if seen % 64 == 0, Date() > deadline { throw ParseError(124, "Query timed out.") }
                guard residual.allSatisfy({ $0(o) }) else { return true }
                matched += 1
                if matched > opts.skip && objects.count < opts.limit { objects.append(o) }
                return q.count || objects.count < opts.limit
            }
            if q.count { count = matched }
        }
        }
        if plain { return Output(results: [], count: count, serialized: serialized) }
        opts.keys = q.keys
        var renderer = ObjectRenderer(serverURL: serverURL, appId: appId, schema: schema)
        renderer.protectedFields = protected
        renderer.excludeKeys = Set(opts.excludeKeys).subtracting(ObjectRenderer.alwaysSelected)
        var includePaths = opts.include.filter { $0 != "*" }.map { $0.split(separator: ".").map(String.init) }
        var nestedKeys: [String: Set<String>] = [:]
        var objectSubKeys: [String: Set<String>] = [:]
        if let keys = opts.keys {
            var top: Set<String> = []
            for k in keys where k != "$score" {
                let parts = k.split(separator: ".").map(String.init)
                guard let first = parts.first else { continue }
                top.insert(first)
                if parts.count > 1 {
                    if case .pointer? = schema?.field(first)?.type {
                        includePaths.append([first])
                        nestedKeys[first, default: []].insert(parts[1])
                    } else {
                        // `a.b` on an Object field returns `a` with only the sub-key `b` (spec §7.9).
                        objectSubKeys[first, default: []].insert(parts[1])
                    }
                }
            }
            renderer.keys = top.union(ObjectRenderer.alwaysSelected)
        }
        var nestedExcludes: [String: Set<String>] = [:]
        for entry in opts.excludeKeys where entry.contains(".") {
            // `a.b` on a Pointer includes `a` and removes `b` from the included object (spec §7.9).
            let parts = entry.split(separator: ".", maxSplits: 1).map(String.init)
            if parts.count == 2, case .pointer? = schema?.field(parts[0])?.type {
                includePaths.append([parts[0]])
                nestedExcludes[parts[0], default: []].insert(parts[1])
            }
        }
        if opts.includeAll, let schema {
            for (name, def) in schema.fields {
                if case .pointer = def.type { includePaths.append([name]) }
                if def.type == .array { includePaths.append([name]) }
            }
        }
        var results: [JSONObject] = []
        for o in objects {
            var r = renderer
            if !lists.userFields.isEmpty {
                r.protectedFields = CLP.protectedFields(for: o, base: lists.base, userFields: lists.userFields, caller: caller)
            }
            if targetClass == "_User" { r.showAuthData = caller.readsAsMaster || o.objectId == caller.userId }
            if targetClass == "_User" && o.objectId == caller.userId { r.protectedFields = [] }
            var rendered = r.render(o)
            if redirected { rendered["className"] = .string(targetClass) }
            for (field, subKeys) in objectSubKeys {
                guard let o = rendered[field]?.objectValue else { continue }
                var kept = JSONObject()
                for (k, v) in o where subKeys.contains(k) { kept[k] = v }
                rendered[field] = .object(kept)
            }
            if targetClass == "_Session", o.objectId == caller.sessionId, let token = currentToken {
                rendered["sessionToken"] = .string(token)
            }
            results.append(rendered)
        }
        if let (field, match) = compiler.textSearch,
           (opts.keys ?? []).contains("$score") || opts.order.contains(where: { $0.hasSuffix("$score") }) {
            let scores = try tx.textScores(targetClass, field, match: match, ids: objects.map(\.objectId))
            for i in results.indices {
                if let id = results[i]["objectId"]?.stringValue, let s = scores[id], let n = JSONNumber(s) {
                    results[i]["score"] = .number(n)
                }
            }
        }
        if !includePaths.isEmpty {
            var includer = Includer(tx: tx, caller: caller, config: config, serverURL: serverURL, appId: appId)
            includer.nestedKeys = nestedKeys
            includer.nestedExcludes = nestedExcludes
            try includer.include(includePaths, into: &results)
        }
        return Output(results: results, count: count)
    }

    /// The caller's clear session token, shown on their own session only (spec §3.5).
    var currentToken: String?

    static func residualMatch(_ o: StoredObject, _ path: [String], _ program: RegexProgram) -> Bool {
        JSONPath(path).anyValue(in: o.data) { $0.stringValue.map(program.matches) ?? false }
    }

    /// ORDER BY terms (spec §7.10); creation order is the store's final tie-breaker.
    func order(_ cq: inout CompiledQuery, _ entries: [String], schema: ClassSchema?, protected: Set<String>,
               textSearch: (field: String, match: String)? = nil) throws {
        for entry in entries {
            let desc = entry.hasPrefix("-")
            let key = desc ? String(entry.dropFirst()) : entry
            if key == "$score" {
                if let (field, match) = textSearch {
                    let table = SQLiteTransaction.ftsTable(cq.className, field)
                    // Either sign sorts best first (spec §7.8); bm25 is lower for better matches.
                    cq.order.append("(SELECT bm25(\(table)) FROM \(table) WHERE \(table) MATCH ? AND \(table).rowid = o.seq) ASC")
                    cq.orderArgs.append(.text(match))
                }
                continue
            }
            let path = key.split(asciiByte: UInt8(ascii: ".")).map(String.init)
            guard let first = path.first else { continue }
            if protected.contains(first) {
                throw ParseError(119, "This user is not allowed to query \(key) on class \(cq.className)")
            }
            let ref = FieldRef(path: path, schema: schema)
            var expr = ref.valueExpr
            switch ref.type {
            case .date?: expr = ref.sub("iso")
            case .pointer?: expr = ref.sub("objectId")
            default: break
            }
            cq.order.append(expr + (desc ? " DESC" : " ASC"))
        }
    }
}
