import Core

/// Renders stored objects for a caller (spec §4.11): hidden fields never appear, files get URLs,
/// relation fields their descriptor, protected fields and `keys`/`excludeKeys` are applied.
struct ObjectRenderer {
    let serverURL: String
    let appId: String
    let schema: ClassSchema?
    var protectedFields: Set<String> = []
    var keys: Set<String>?
    var excludeKeys: Set<String> = []
    /// `_User`: whether `authData` may be shown (the user themself or the master key).
    var showAuthData = false

    static let alwaysSelected: Set<String> = ["objectId", "createdAt", "updatedAt", "ACL"]

    /// True when rendering objects of this schema adds no field of its own: no relation field, whose
    /// descriptor `render` adds. With no field removed either (no protected fields, `keys`, `excludeKeys`)
    /// and not a system class, an object then renders as stored (`PlainObjectBytes`).
    static func addsNoFields(_ schema: ClassSchema?) -> Bool {
        !(schema?.fields.contains { if case .relation = $0.field.type { return true } else { return false } } ?? false)
    }

    func render(_ o: StoredObject) -> JSONObject {
        var out: JSONObject = ["objectId": .string(o.objectId)]
        for (k, v) in o.data {
            if k.hasPrefix("_") || !include(k) { continue }
            if o.className == "_User" {
                if k == "password" || k == "sessionToken" { continue }
                if k == "authData" {
                    guard showAuthData, let ad = v.objectValue else { continue }
                    var kept = JSONObject()
                    for (p, d) in ad where !d.isNull { kept[p] = d }
                    if !kept.isEmpty { out[k] = .object(kept) }
                    continue
                }
            }
            if o.className == "_Session" && k == "sessionToken" { continue }
            out[k] = withFileURLs(v)
        }
        if let schema {
            for (name, def) in schema.fields {
                if case .relation(let target) = def.type, include(name), out[name] == nil {
                    out[name] = ["__type": "Relation", "className": .string(target)]
                }
            }
        }
        out["createdAt"] = .string(o.createdAt)
        out["updatedAt"] = .string(o.updatedAt)
        if let acl = o.acl { out["ACL"] = .object(acl) }
        return out
    }

    private func include(_ k: String) -> Bool {
        if protectedFields.contains(k) || excludeKeys.contains(k) { return false }
        if let keys { return keys.contains(k) }
        return true
    }

    /// File values (at any depth) carry their URL, computed from the name (spec §13.2).
    func withFileURLs(_ v: JSON) -> JSON {
        switch v {
        case .object(let o):
            if o["__type"]?.stringValue == "File", let name = o["name"]?.stringValue {
                return ["__type": "File", "name": .string(name), "url": .string(fileURL(name))]
            }
            if o["__type"] != nil { return v }
            var out = JSONObject()
            for (k, x) in o { out[k] = withFileURLs(x) }
            return .object(out)
        case .array(let a):
            return .array(a.map(withFileURLs))
        default:
            return v
        }
    }

    func fileURL(_ name: String) -> String {
        Self.fileURL(serverURL: serverURL, appId: appId, name: name)
    }

    static func fileURL(serverURL: String, appId: String, name: String) -> String {
        "\(serverURL)/files/\(percentEncode(appId))/\(percentEncode(name))"
    }

    /// Everything except `A-Za-z0-9-._~` is percent-encoded (a space becomes `%20`).
    static func percentEncode(_ s: String) -> String {
        PercentEncoding.unreserved(s)
    }
}
