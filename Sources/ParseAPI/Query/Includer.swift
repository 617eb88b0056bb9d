import Core

/// Expands pointers named by `include` (spec §7.9): one batched lookup per class and path level, with
/// the caller's rights; unreadable or missing targets are dropped.
struct Includer {
    let tx: any ParseTransaction
    let caller: Caller
    let config: ParseConfig
    let serverURL: String
    let appId: String
    var nestedKeys: [String: Set<String>] = [:]
    var nestedExcludes: [String: Set<String>] = [:]

    mutating func include(_ paths: [[String]], into results: inout [JSONObject]) throws {
        // Every prefix of every path, shortest first, each once.
        var levels: [[String]] = []
        for p in paths {
            for n in 1...max(1, p.count) where !levels.contains(Array(p.prefix(n))) { levels.append(Array(p.prefix(n))) }
        }
        levels.sort { $0.count < $1.count }
        for path in levels { try expand(path, in: &results) }
    }

    private mutating func expand(_ path: [String], in results: inout [JSONObject]) throws {
        // Collect pointers at `path`.
        var wanted: [String: Set<String>] = [:]
        for r in results { collect(.object(r), path[...], &wanted) }
        guard !wanted.isEmpty else { return }
        var fetched: [String: JSONObject] = [:]
        for (cls, ids) in wanted {
            guard FieldNames.isValidClassName(cls) else { continue }
            let key = path.joined(separator: ".")
            for (id, obj) in try fetch(cls, Array(ids), restrict: nestedKeys[key], exclude: nestedExcludes[key] ?? []) {
                fetched[cls + "/" + id] = obj
            }
        }
        for i in results.indices {
            if case .object(let replaced) = replace(.object(results[i]), path[...], fetched) { results[i] = replaced }
        }
    }

    private func collect(_ v: JSON, _ path: ArraySlice<String>, _ out: inout [String: Set<String>]) {
        guard let key = path.first else {
            if let o = v.objectValue, o["__type"]?.stringValue == "Pointer", let c = o["className"]?.stringValue,
               let id = o["objectId"]?.stringValue {
                out[c, default: []].insert(id)
            } else if let arr = v.arrayValue {
                for e in arr { collect(e, path, &out) }
            }
            return
        }
        if let o = v.objectValue, let child = o[key] { collect(child, path.dropFirst(), &out) }
    }

    private func replace(_ v: JSON, _ path: ArraySlice<String>, _ fetched: [String: JSONObject]) -> JSON? {
        guard let key = path.first else {
            if let o = v.objectValue, o["__type"]?.stringValue == "Pointer", let c = o["className"]?.stringValue,
               let id = o["objectId"]?.stringValue {
                return fetched[c + "/" + id].map { .object($0) }
            }
            if let arr = v.arrayValue {
                return .array(arr.compactMap { e -> JSON? in
                    if e.objectValue?["__type"]?.stringValue == "Pointer" { return replace(e, path, fetched) }
                    return e
                })
            }
            return v
        }
        guard var o = v.objectValue, let child = o[key] else { return v }
        o[key] = replace(child, path.dropFirst(), fetched)
        return .object(o)
    }

    /// Readable targets rendered as `{"__type":"Object","className":...}`.
    private func fetch(_ cls: String, _ ids: [String], restrict: Set<String>?, exclude: Set<String>) throws
        -> [(String, JSONObject)] {
        let schema = try Schemas.load(cls, tx)
        guard (try? CLP.check("get", className: cls, schema: schema, caller: caller)) != nil else { return [] }
        let outcome = (try? CLP.check("get", className: cls, schema: schema, caller: caller)) ?? .allowed
        var renderer = ObjectRenderer(serverURL: serverURL, appId: appId, schema: schema)
        let lists = CLP.protectedLists(className: cls, schema: schema, caller: caller, serverWide: config.protectedFields)
        renderer.protectedFields = lists.base ?? []
        if let restrict { renderer.keys = restrict.union(ObjectRenderer.alwaysSelected) }
        renderer.excludeKeys = exclude.subtracting(ObjectRenderer.alwaysSelected)
        var out: [(String, JSONObject)] = []
        for o in try tx.objects(cls, ids: ids) {
            if !caller.readsAsMaster {
                guard ACLPermissions.allows(o.acl, "read", group: caller.aclGroup) else { continue }
                if cls == "_Session" && o.data["user"]?["objectId"]?.stringValue != caller.userId { continue }
                if case .pointerRestricted(let f) = outcome, !CLP.objectMatches(f, userId: caller.userId, o) { continue }
            }
            var r = renderer
            if !lists.userFields.isEmpty {
                r.protectedFields = CLP.protectedFields(for: o, base: lists.base, userFields: lists.userFields, caller: caller)
            }
            if cls == "_User" {
                r.showAuthData = caller.readsAsMaster || o.objectId == caller.userId
                if o.objectId == caller.userId { r.protectedFields = [] }
            }
            var rendered: JSONObject = ["__type": "Object", "className": .string(cls)]
            for (k, v) in r.render(o) { rendered[k] = v }
            out.append((o.objectId, rendered))
        }
        return out
    }
}
