import Core

/// Validation of `/schemas` bodies: fields, class-level permissions and indexes (spec §5.4, §14).
enum SchemaValidation {
    static func field(_ name: String, _ def: JSON, className: String) throws -> FieldDefinition {
        guard FieldNames.isValid(name) else { throw ParseError(105, "invalid field name: \(name)") }
        if FieldNames.defaultFields.contains(name) || FieldNames.builtinFields(className).contains(where: { $0.0 == name }) {
            throw ParseError(136, "field \(name) cannot be added")
        }
        guard let o = def.objectValue, let typeName = o["type"]?.stringValue else {
            throw ParseError(111, "invalid field type: \(def["type"]?.serialized() ?? "undefined")")
        }
        guard var type = FieldType.named(typeName, target: nil), typeName != "ACL" else {
            throw ParseError(111, "invalid field type: \(typeName)")
        }
        if typeName == "Pointer" || typeName == "Relation" {
            guard let t = o["targetClass"] else { throw ParseError(135, "type \(typeName) needs a class name") }
            guard let target = t.stringValue else { throw ParseError(107, "invalid JSON") }
            try FieldNames.checkClassName(target)
            type = typeName == "Pointer" ? .pointer(target) : .relation(target)
        }
        var result = FieldDefinition(type: type)
        if case .relation = type {
            if o["defaultValue"] != nil {
                throw ParseError(111, "The 'default value' option is not applicable for \(type.displayName)")
            }
            if o["required"]?.boolValue == true {
                throw ParseError(111, "The 'required' option is not applicable for \(type.displayName)")
            }
        }
        result.required = o["required"]?.boolValue ?? false
        if let d = o["defaultValue"], !d.isNull {
            let normalized = try Values.normalize(d)
            if let got = Values.type(of: normalized), got != type {
                throw ParseError(111, "schema mismatch for \(className).\(name) default value; expected \(type.displayName) "
                    + "but got \(got.displayName)")
            }
            result.defaultValue = normalized
        }
        return result
    }

    static let clpKeys: Set<String> = ["find", "count", "get", "create", "update", "delete", "addField",
                                       "readUserFields", "writeUserFields", "protectedFields"]

    static func clp(_ value: JSON, schema: ClassSchema) throws -> JSONObject {
        guard let o = value.objectValue else { throw ParseError(107, "class level permissions must be an object") }
        for (op, entry) in o {
            guard clpKeys.contains(op) else { throw ParseError(107, "\(op) is not a valid operation for class level permissions") }
            switch op {
            case "readUserFields", "writeUserFields":
                guard let fields = entry.arrayValue else {
                    throw ParseError(107, "'\(entry.serialized())' is not a valid value for class level permissions \(op)")
                }
                for f in fields { try pointerColumn(f, op: op, schema: schema) }
            case "protectedFields":
                guard let map = entry.objectValue else { throw ParseError(107, "protectedFields must be an object") }
                for (entity, list) in map {
                    guard let items = list.arrayValue else {
                        throw ParseError(107, "'\(list.serialized())' is not a valid value for protectedFields[\(entity)] - expected an array.")
                    }
                    for item in items {
                        guard let f = item.stringValue else { throw ParseError(107, "protectedFields entries must be strings") }
                        if FieldNames.defaultFields.contains(f) { throw ParseError(107, "Default field '\(f)' can not be protected") }
                        if schema.field(f) == nil {
                            throw ParseError(107, "Field '\(f)' in protectedFields:\(entity) does not exist")
                        }
                    }
                }
            default:
                guard let perms = entry.objectValue else {
                    throw ParseError(107, "'\(entry.serialized())' is not a valid value for class level permissions \(op)")
                }
                for (key, v) in perms {
                    if key == "pointerFields" {
                        guard let fields = v.arrayValue else {
                            throw ParseError(107, "'\(v.serialized())' is not a valid value for class level permissions \(op):\(key):\(v.serialized())")
                        }
                        for f in fields { try pointerColumn(f, op: op, schema: schema) }
                        continue
                    }
                    let validKey = key == "*" || key == "requiresAuthentication"
                        || (key.hasPrefix("role:") && RoleName.isValid(String(key.dropFirst(5))))
                        || (key.utf8.count == 10 && key.utf8.allSatisfy { FieldNames.isAlpha($0) || ($0 >= 48 && $0 <= 57) })
                    guard validKey else { throw ParseError(107, "'\(key)' is not a valid key for class level permissions") }
                    guard v == .bool(true) else {
                        throw ParseError(107, "'\(v.serialized())' is not a valid value for class level permissions \(op):\(key):\(v.serialized())")
                    }
                }
            }
        }
        return o
    }

    private static func pointerColumn(_ f: JSON, op: String, schema: ClassSchema) throws {
        guard let name = f.stringValue, let def = schema.field(name) else {
            throw ParseError(107, "'\(f.stringValue ?? f.serialized())' is not a valid column for class level pointer permissions \(op)")
        }
        switch def.type {
        case .pointer("_User"), .array: return
        default: throw ParseError(107, "'\(name)' is not a valid column for class level pointer permissions \(op)")
        }
    }

    static func isValidIndexName(_ n: String) -> Bool {
        n != "_id_" && !n.isEmpty && n.utf8.count <= 64
            && n.utf8.allSatisfy { FieldNames.isAlpha($0) || ($0 >= 48 && $0 <= 57) || $0 == 95 }
    }
}
