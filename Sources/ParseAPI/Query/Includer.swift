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

    /// Readable targets rendered as `{"__type":"Object","className":...}`, read with the caller's rights of a
    /// `get` on their class (`ClassReadAccess`): targets the caller may not get are left out.
    private func fetch(_ cls: String, _ ids: [String], restrict: Set<String>?, exclude: Set<String>) throws
        -> [(String, JSONObject)] {
        let schema = try Schemas.load(cls, tx)
        let access = ClassReadAccess(className: cls, schema: schema, caller: caller, config: config, operation: "get")
        guard access.refusal == nil else { return [] }
        var renderer = ObjectRenderer(serverURL: serverURL, appId: appId, schema: schema)
        renderer.protectedFields = access.protected
        if let restrict { renderer.keys = restrict.union(ObjectRenderer.alwaysSelected) }
        renderer.excludeKeys = exclude.subtracting(ObjectRenderer.alwaysSelected)
        var out: [(String, JSONObject)] = []
        for o in try tx.objects(cls, ids: ids) where access.canRead(o) {
            var r = renderer
            r.protectedFields = access.protectedFields(for: o)
            if cls == "_User" { r.showAuthData = caller.readsAsMaster || o.objectId == caller.userId }
            var rendered: JSONObject = ["__type": "Object", "className": .string(cls)]
            for (k, v) in r.render(o) { rendered[k] = v }
            out.append((o.objectId, rendered))
        }
        return out
    }
}
