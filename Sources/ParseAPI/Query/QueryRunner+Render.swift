import Core

extension QueryRunner {
    /// How the objects of a find are rendered (spec §7.9): the renderer's selection, the pointers to
    /// include, and the sub-keys kept or removed on the way.
    struct Projection {
        var renderer: ObjectRenderer
        var includePaths: [[String]] = []
        /// `keys` entries `pointer.key`: the keys kept in the included object.
        var nestedKeys: [String: Set<String>] = [:]
        /// `excludeKeys` entries `pointer.key`: the keys removed from the included object.
        var nestedExcludes: [String: Set<String>] = [:]
        /// `keys` entries `object.key` on Object fields: the sub-keys kept.
        var objectSubKeys: [String: Set<String>] = [:]
    }

    /// Step 6: the projection of `keys`, `excludeKeys`, `include` and `includeAll`.
    func projection(_ target: Target, _ q: QueryOptions, _ access: Access) -> Projection {
        let schema = target.schema
        var p = Projection(renderer: ObjectRenderer(serverURL: serverURL, appId: appId, schema: schema))
        p.renderer.protectedFields = access.protected
        p.renderer.excludeKeys = Set(q.excludeKeys).subtracting(ObjectRenderer.alwaysSelected)
        p.includePaths = q.include.filter { $0 != "*" }.map { $0.split(separator: ".").map(String.init) }
        if let keys = q.keys {
            var top: Set<String> = []
            for k in keys where k != "$score" {
                let parts = k.split(separator: ".").map(String.init)
                guard let first = parts.first else { continue }
                top.insert(first)
                if parts.count > 1 {
                    if case .pointer? = schema?.field(first)?.type {
                        p.includePaths.append([first])
                        p.nestedKeys[first, default: []].insert(parts[1])
                    } else {
                        // `a.b` on an Object field returns `a` with only the sub-key `b` (spec §7.9).
                        p.objectSubKeys[first, default: []].insert(parts[1])
                    }
                }
            }
            p.renderer.keys = top.union(ObjectRenderer.alwaysSelected)
        }
        for entry in q.excludeKeys where entry.contains(".") {
            // `a.b` on a Pointer includes `a` and removes `b` from the included object (spec §7.9).
            let parts = entry.split(separator: ".", maxSplits: 1).map(String.init)
            if parts.count == 2, case .pointer? = schema?.field(parts[0])?.type {
                p.includePaths.append([parts[0]])
                p.nestedExcludes[parts[0], default: []].insert(parts[1])
            }
        }
        if q.includeAll, let schema {
            for (name, def) in schema.fields {
                if case .pointer = def.type { p.includePaths.append([name]) }
                if def.type == .array { p.includePaths.append([name]) }
            }
        }
        return p
    }

    /// Step 7: each object as this caller sees it.
    func render(_ objects: [StoredObject], _ target: Target, _ projection: Projection, _ access: Access) -> [JSONObject] {
        let perObject = !access.protectedLists.userFields.isEmpty || target.className == "_User"
        var results: [JSONObject] = []
        results.reserveCapacity(objects.count)
        for o in objects {
            var r = projection.renderer
            if perObject { r.protectedFields = access.protectedFields(for: o) }
            if target.className == "_User" { r.showAuthData = caller.readsAsMaster || o.objectId == caller.userId }
            var rendered = r.render(o)
            if target.redirected { rendered["className"] = .string(target.className) }
            for (field, subKeys) in projection.objectSubKeys {
                guard let o = rendered[field]?.objectValue else { continue }
                var kept = JSONObject()
                for (k, v) in o where subKeys.contains(k) { kept[k] = v }
                rendered[field] = .object(kept)
            }
            if target.className == "_Session", o.objectId == caller.sessionId, let token = currentToken {
                rendered["sessionToken"] = .string(token)
            }
            results.append(rendered)
        }
        return results
    }

    /// Step 8: `score` on each result when `$score` is asked for by `keys` or `order` (spec §7.8).
    func addScores(_ results: inout [JSONObject], _ planned: FindPlan, _ q: QueryOptions, objects: [StoredObject]) throws {
        guard let search = planned.textSearch,
              (q.keys ?? []).contains("$score") || q.order.contains(where: { $0.hasSuffix("$score") }) else { return }
        let scores = try tx.textScores(search, ids: objects.map(\.objectId))
        for i in results.indices {
            if let id = results[i]["objectId"]?.stringValue, let s = scores[id], let n = JSONNumber(s) {
                results[i]["score"] = .number(n)
            }
        }
    }

    /// Step 9: the pointers named by `include` (and implied by `keys`/`excludeKeys`), with the caller's rights.
    func include(_ results: inout [JSONObject], _ projection: Projection) throws {
        guard !projection.includePaths.isEmpty else { return }
        var includer = Includer(tx: tx, caller: caller, config: config, serverURL: serverURL, appId: appId)
        includer.nestedKeys = projection.nestedKeys
        includer.nestedExcludes = projection.nestedExcludes
        try includer.include(projection.includePaths, into: &results)
    }
}
