import Core

/// A write body checked for everything that does not depend on stored data (spec §5.7, §6.1, §6.3).
struct WriteRequest: Sendable {
    /// (path, operation); a path has one segment except for dotted update paths.
    var operations: [(path: [String], op: FieldOperation)] = []
    /// The explicit ACL, when the body has one (normalised).
    var acl: JSONObject?
    var aclGiven = false
    /// A client-supplied objectId (only with `allowCustomObjectId`).
    var customObjectId: String?

    /// Fields that need special handling by a system class route (password, authData...), removed from ops.
    var special: JSONObject = JSONObject()

    static let specialKeys: [String: Set<String>] = [
        "_User": ["password", "authData", "sessionToken"],
        "_Session": ["sessionToken"],
    ]

    /// Parses a create body.
    static func create(_ body: JSONObject, className: String, config: ParseConfig, caller: Caller) throws -> WriteRequest {
        var w = WriteRequest()
        if let id = body["objectId"] {
            guard config.allowCustomObjectId else { throw ParseError(105, "objectId is an invalid field name.") }
            guard let s = id.stringValue, !s.isEmpty else {
                if id.isNull || id.stringValue == "" {
                    throw ParseError(104, "objectId must not be empty, null or undefined")
                }
                throw ParseError(119, "Invalid object ID.")
            }
            guard FieldNames.isValidCustomObjectId(s) else { throw ParseError(119, "Invalid object ID.") }
            w.customObjectId = s
        }
        if body["id"] != nil { throw ParseError(105, "id is an invalid field name.") }
        try ForbiddenKeys.check(.object(body))
        try w.parseFields(body, className: className, allowDotted: false)
        return w
    }

    /// Parses an update body (objectId/createdAt/updatedAt ignored; dotted paths allowed).
    static func update(_ body: JSONObject, className: String) throws -> WriteRequest {
        var w = WriteRequest()
        try ForbiddenKeys.check(.object(body))
        try w.parseFields(body, className: className, allowDotted: true)
        // A body addressing both `a` and `a.b` is ambiguous (refused here, before the write is queued).
        _ = try UpdatePaths(w.operations)
        return w
    }

    private mutating func parseFields(_ body: JSONObject, className: String, allowDotted: Bool) throws {
        let special = Self.specialKeys[className] ?? []
        for (key, value) in body {
            if key == "objectId" || key == "createdAt" || key == "updatedAt" { continue }
            if key == "ACL" {
                if case .object(let o) = value, o["__op"]?.stringValue == "Delete" {
                    acl = nil
                } else {
                    acl = try ACL.normalize(value)
                }
                aclGiven = true
                continue
            }
            if special.contains(key) {
                self.special[key] = value
                continue
            }
            var path = [key]
            if allowDotted, key.utf8.contains(UInt8(ascii: ".")) {
                // Counted before splitting: a key of many thousands of segments is refused without making them.
                guard key.utf8.lazy.filter({ $0 == UInt8(ascii: ".") }).count < UpdatePaths.maxSegments else {
                    throw ParseError(107, "A dotted path may have at most \(UpdatePaths.maxSegments) segments.")
                }
                path = key.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
                for seg in path {
                    try ForbiddenKeys.checkKey(seg, nil)
                    guard FieldNames.isValid(seg) else { throw FieldNames.invalidField(key) }
                }
                guard FieldNames.isWritable(path[0]) else { throw FieldNames.invalidField(key) }
            } else if !FieldNames.isWritable(key) {
                throw FieldNames.invalidField(key)
            }
            let op = try FieldOperation.parse(value)
            if path.count > 1, op.isRelation { throw ParseError(107, "Relation operations cannot use dotted paths") }
            operations.append((path, op))
        }
    }

    /// The top-level types this write implies (a dotted path implies Object for its first segment).
    var impliedTypes: [(field: String, type: FieldType)] {
        // Built with the labels of the result: an array of unlabeled tuples returned as labeled ones is
        // converted by a dynamic cast of every element (a third of the cost for a write of 499 fields).
        var out: [(field: String, type: FieldType)] = []
        out.reserveCapacity(operations.count)
        for (path, op) in operations {
            if path.count > 1 {
                out.append((path[0], .object))
            } else if let t = op.impliedType {
                out.append((path[0], t))
            }
        }
        return out
    }

    /// The implied types that may change the class schema: without the server's own fields (`_`-prefixed,
    /// and the default fields every class has), which `Schemas.apply` leaves alone.
    var schemaTypes: [(field: String, type: FieldType)] {
        impliedTypes.filter { !$0.field.hasPrefix("_") && !FieldNames.defaultFields.contains($0.field) }
    }
}
