import Core

/// Value helpers for `/aggregate`: field references, ordering and simple matching on rendered documents.
enum AggregateValues {
    /// `$a.b` -> the value at that path of a document (`_id` is read as `objectId`).
    static func resolve(_ ref: String, in doc: JSONObject) -> JSON? {
        guard ref.hasPrefix("$") else { return .string(ref) }
        var v: JSON? = .object(doc)
        for part in ref.dropFirst().split(separator: ".") {
            let key = part == "_id" ? "objectId" : String(part)
            v = v?[key]
        }
        // Pointers group and compare by their objectId.
        if let o = v?.objectValue, o["__type"]?.stringValue == "Pointer" { return o["objectId"] }
        return v
    }

    /// A comparable key: numbers, then strings, then dates, then booleans, then other JSON.
    static func rank(_ v: JSON?) -> (Int, Double, String) {
        guard let v else { return (0, 0, "") }
        switch v {
        case .null: return (0, 0, "")
        case .number(let n): return (1, n.doubleValue, "")
        case .string(let s): return (2, 0, s)
        case .object(let o) where o["__type"]?.stringValue == "Date": return (3, 0, o["iso"]?.stringValue ?? "")
        case .object(let o) where o["__type"]?.stringValue == "Pointer": return (2, 0, o["objectId"]?.stringValue ?? "")
        case .bool(let b): return (4, b ? 1 : 0, "")
        default: return (5, 0, v.serialized(sortedKeys: true))
        }
    }

    static func less(_ a: JSON?, _ b: JSON?) -> Bool {
        let x = rank(a), y = rank(b)
        if x.0 != y.0 { return x.0 < y.0 }
        if x.1 != y.1 { return x.1 < y.1 }
        return x.2 < y.2
    }

    static func same(_ a: JSON?, _ b: JSON?) -> Bool {
        let x = rank(a), y = rank(b)
        return x.0 == y.0 && x.1 == y.1 && x.2 == y.2
    }

    /// `createdAt`/`updatedAt` strings become Date objects in group outputs (spec §17.2).
    static func asDateIfTimestamp(_ ref: String, _ v: JSON?) -> JSON? {
        if (ref == "$createdAt" || ref == "$updatedAt"), let s = v?.stringValue { return ["__type": "Date", "iso": .string(s)] }
        return v
    }

    /// The subset of conditions allowed on group outputs: equality, $lt/$lte/$gt/$gte/$ne/$in/$nin/$exists.
    static func matches(_ doc: JSONObject, _ cond: JSONObject) throws -> Bool {
        for (key, want) in cond {
            let have = resolve("$" + key, in: doc)
            if let ops = want.objectValue, ops.keys.contains(where: { $0.hasPrefix("$") }) {
                for (op, operand) in ops {
                    let operandValue = normalizedOperand(operand)
                    switch op {
                    case "$eq": if !same(have, operandValue) { return false }
                    case "$ne": if same(have, operandValue) { return false }
                    case "$lt": if !(rank(have).0 == rank(operandValue).0 && less(have, operandValue)) { return false }
                    case "$lte": if !(rank(have).0 == rank(operandValue).0 && !less(operandValue, have)) { return false }
                    case "$gt": if !(rank(have).0 == rank(operandValue).0 && less(operandValue, have)) { return false }
                    case "$gte": if !(rank(have).0 == rank(operandValue).0 && !less(have, operandValue)) { return false }
                    case "$in": if !(operand.arrayValue ?? []).contains(where: { same(have, normalizedOperand($0)) }) { return false }
                    case "$nin": if (operand.arrayValue ?? []).contains(where: { same(have, normalizedOperand($0)) }) { return false }
                    case "$exists":
                        let present = have != nil && have != .null
                        if present != (operand.boolValue ?? false) { return false }
                    default: throw ParseError(102, "Unsupported condition in $match after $group: \(op)")
                    }
                }
            } else if !same(have, normalizedOperand(want)) {
                return false
            }
        }
        return true
    }

    static func normalizedOperand(_ v: JSON) -> JSON {
        if let o = v.objectValue, o["__type"]?.stringValue == "Date", let iso = o["iso"]?.stringValue,
           let ts = ParseDate.normalize(iso) {
            return ["__type": "Date", "iso": .string(ts)]
        }
        return v
    }
}
