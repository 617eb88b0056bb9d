import Core

/// What a write does to one field (spec §6.5).
enum FieldOperation: Sendable, Equatable {
    case set(JSON)
    case delete
    case increment(JSONNumber)
    case add([JSON])
    case addUnique([JSON])
    case remove([JSON])
    case addRelation(String, [String])
    case removeRelation(String, [String])
    case relationBatch([FieldOperation])
    case setOnInsert(JSON)

    /// Parses a body value: an `__op` object or a plain/tagged value (normalised).
    static func parse(_ value: JSON) throws -> FieldOperation {
        guard let o = value.objectValue, let opValue = o["__op"] else { return .set(try Values.normalize(value)) }
        guard let op = opValue.stringValue else { throw ParseError(108, "The \(opValue.serialized()) operator is not supported yet.") }
        switch op {
        case "Delete":
            return .delete
        case "Increment":
            guard case .number(let n)? = o["amount"] else { throw ParseError(107, "incrementing must provide a number") }
            return .increment(Values.normalizeNumber(n))
        case "Add", "AddUnique":
            guard let objs = o["objects"]?.arrayValue else { throw ParseError(107, "objects to add must be an array") }
            let norm = try objs.map { try Values.normalize($0, nested: true) }
            return op == "Add" ? .add(norm) : .addUnique(norm)
        case "Remove":
            guard let objs = o["objects"]?.arrayValue else { throw ParseError(107, "objects to remove must be an array") }
            return .remove(try objs.map { try Values.normalize($0, nested: true) })
        case "AddRelation", "RemoveRelation":
            let (cls, ids) = try relationTargets(o["objects"])
            return op == "AddRelation" ? .addRelation(cls, ids) : .removeRelation(cls, ids)
        case "Batch":
            guard let ops = o["ops"]?.arrayValue else { throw ParseError(107, "Batch ops must be an array") }
            var out: [FieldOperation] = []
            var cls: String?
            for item in ops {
                let parsed = try parse(item)
                switch parsed {
                case .addRelation(let c, _), .removeRelation(let c, _):
                    if let cls, cls != c { throw ParseError(111, "All relation objects must be of the same class") }
                    cls = c
                    out.append(parsed)
                default:
                    throw ParseError(107, "Batch ops may only contain AddRelation and RemoveRelation")
                }
            }
            return .relationBatch(out)
        case "SetOnInsert":
            return .setOnInsert(try Values.normalize(o["amount"] ?? .null))
        default:
            throw ParseError(108, "The \(op) operator is not supported yet.")
        }
    }

    private static func relationTargets(_ value: JSON?) throws -> (String, [String]) {
        guard let objs = value?.arrayValue else { throw ParseError(107, "objects to add must be an array") }
        var cls: String?
        var ids: [String] = []
        for item in objs {
            guard let p = item.objectValue, p["__type"]?.stringValue == "Pointer" || p["__type"]?.stringValue == "Object",
                  let c = p["className"]?.stringValue, let id = p["objectId"]?.stringValue else {
                throw Values.notValid("Pointer")
            }
            try FieldNames.checkClassName(c)
            if let cls, cls != c { throw ParseError(111, "All relation objects must be of the same class") }
            cls = c
            ids.append(id)
        }
        return (cls ?? "", ids)
    }

    /// The schema type this operation implies (nil: no type, e.g. Delete or null).
    var impliedType: FieldType? {
        switch self {
        case .set(let v), .setOnInsert(let v): return Values.type(of: v)
        case .delete: return nil
        case .increment: return .number
        case .add, .addUnique, .remove: return .array
        case .addRelation(let c, _), .removeRelation(let c, _): return c.isEmpty ? nil : .relation(c)
        case .relationBatch(let ops): return ops.lazy.compactMap(\.impliedType).first
        }
    }

    /// True for relation operations (they store nothing in the object).
    var isRelation: Bool {
        switch self {
        case .addRelation, .removeRelation, .relationBatch: return true
        case .set(let v): return v.objectValue?["__type"]?.stringValue == "Relation"
        default: return false
        }
    }

    /// Whether the result is echoed in the write response (spec §6.6).
    func echoed(onCreate: Bool) -> Bool {
        switch self {
        case .increment, .add, .addUnique, .remove: return true
        case .setOnInsert: return onCreate
        default: return false
        }
    }

    /// Applies the operation to the current value; nil result means "remove the key".
    func apply(to current: JSON?, creating: Bool) throws -> JSON? {
        switch self {
        case .set(let v): return v
        case .delete: return nil
        case .setOnInsert(let v): return creating ? v : current
        case .increment(let n):
            guard let cur = current, !cur.isNull else { return .number(n) }
            guard case .number(let c) = cur else { throw ParseError(111, "Cannot increment a non-number value") }
            if let a = c.int64Value, c.isInteger, let b = n.int64Value, n.isInteger {
                let (sum, overflow) = a.addingReportingOverflow(b)
                if !overflow { return .number(JSONNumber(sum)) }
            }
            guard let d = JSONNumber(c.doubleValue + n.doubleValue) else { throw ParseError(111, "Number out of range") }
            return .number(Values.normalizeNumber(d))
        case .add(let objs):
            return .array(try currentArray(current) + objs)
        case .addUnique(let objs):
            // Each element's key is made once (see SameValueKey): linear in the two arrays together.
            var arr = try currentArray(current)
            var present = Set(arr.map(SameValueKey.init))
            for o in objs where present.insert(SameValueKey(o)).inserted { arr.append(o) }
            return .array(arr)
        case .remove(let objs):
            let arr = try currentArray(current)
            let removed = Set(objs.map(SameValueKey.init))
            return .array(arr.filter { !removed.contains(SameValueKey($0)) })
        case .addRelation, .removeRelation, .relationBatch:
            return current
        }
    }

    private func currentArray(_ v: JSON?) throws -> [JSON] {
        guard let v, !v.isNull else { return [] }
        guard let a = v.arrayValue else { throw ParseError(111, "Cannot apply an array operation to a non-array value") }
        return a
    }
}
