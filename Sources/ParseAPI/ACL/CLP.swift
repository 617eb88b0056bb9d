import Core

/// Class-level permissions (spec §5.4, §5.5).
enum CLP {
    static let operations = ["find", "count", "get", "create", "update", "delete", "addField"]

    /// The CLP of a new class. Built once: every request on a class without a stored CLP checks it.
    static let defaultPermissions: JSONObject =
        ["find": ["*": true], "count": ["*": true], "get": ["*": true], "create": ["*": true],
         "update": ["*": true], "delete": ["*": true], "addField": ["*": true], "protectedFields": ["*": []]]

    /// Result of a check that did not fail.
    enum Outcome: Equatable {
        case allowed
        /// Admitted only for objects whose named pointer fields point to the caller.
        case pointerRestricted([String])
    }

    static func check(_ op: String, className: String, schema: ClassSchema?, caller: Caller) throws -> Outcome {
        if caller.readsAsMaster { return .allowed }
        let clp = schema?.clp ?? defaultPermissions
        guard let entry = clp[op]?.objectValue else { return .allowed }
        if entry["*"]?.boolValue == true { return .allowed }
        if caller.aclGroup.contains(where: { entry[$0]?.boolValue == true }) { return .allowed }
        if entry["requiresAuthentication"]?.boolValue == true {
            if caller.userId != nil { return .allowed }
            throw ParseError(101, "Permission denied, user needs to be authenticated.")
        }
        var fields: [String] = entry["pointerFields"]?.arrayValue?.compactMap(\.stringValue) ?? []
        let isRead = op == "get" || op == "find" || op == "count"
        if isRead {
            fields += clp["readUserFields"]?.arrayValue?.compactMap(\.stringValue) ?? []
        } else if op != "create" && op != "addField" {
            fields += clp["writeUserFields"]?.arrayValue?.compactMap(\.stringValue) ?? []
        }
        if !fields.isEmpty { return .pointerRestricted(fields) }
        throw ParseError(119, "Permission denied for action \(op) on class \(className).")
    }

    /// Whether a loaded object satisfies a pointer restriction.
    static func objectMatches(_ fields: [String], userId: String?, _ object: StoredObject) -> Bool {
        guard let userId else { return false }
        for f in fields {
            guard let v = object.data[f] else { continue }
            if v["objectId"]?.stringValue == userId { return true }
            if let arr = v.arrayValue, arr.contains(where: { $0["objectId"]?.stringValue == userId }) { return true }
        }
        return false
    }

    /// Fields hidden from this caller (spec §5.6): the intersection of the lists of every entity that
    /// applies; `userField:` entities are not evaluated here.
    static func protectedFields(className: String, schema: ClassSchema?, caller: Caller, serverWide: JSONObject) -> Set<String> {
        protectedLists(className: className, schema: schema, caller: caller, serverWide: serverWide).base ?? []
    }

    /// The lists that always apply (nil when none does) and the `userField:<pointer>` lists, which apply per
    /// object when that pointer field names the caller.
    static func protectedLists(className: String, schema: ClassSchema?, caller: Caller, serverWide: JSONObject)
        -> (base: Set<String>?, userFields: [(field: String, list: Set<String>)]) {
        if caller.readsAsMaster { return ([], []) }
        var map = JSONObject()
        if let pf = serverWide[className]?.objectValue { for (k, v) in pf { map[k] = v } }
        if let pf = (schema?.clp ?? [:])["protectedFields"]?.objectValue {
            for (k, v) in pf {
                // Class lists are merged with the server-wide ones (union per entity).
                let merged = (map[k]?.arrayValue ?? []) + (v.arrayValue ?? [])
                map[k] = .array(merged)
            }
        }
        var entities = ["*"]
        if caller.userId != nil { entities.append("authenticated") }
        entities += caller.aclGroup.dropFirst()
        var result: Set<String>?
        for e in entities {
            guard let list = map[e]?.arrayValue else { continue }
            let s = Set(list.compactMap(\.stringValue))
            result = result.map { $0.intersection(s) } ?? s
        }
        var userFields: [(String, Set<String>)] = []
        if caller.userId != nil {
            for (k, v) in map where k.hasPrefix("userField:") {
                userFields.append((String(k.dropFirst("userField:".count)), Set((v.arrayValue ?? []).compactMap(\.stringValue))))
            }
        }
        return (result, userFields)
    }

    /// The protected set for one object: the always-applying lists intersected with every `userField:` list
    /// whose pointer field names the caller.
    static func protectedFields(for object: StoredObject, base: Set<String>?, userFields: [(field: String, list: Set<String>)],
                                caller: Caller) -> Set<String> {
        var result = base
        for (field, list) in userFields where objectMatches([field], userId: caller.userId, object) {
            result = result.map { $0.intersection(list) } ?? list
        }
        return result ?? []
    }
}
