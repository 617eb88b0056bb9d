import Core
import QueryKit

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

    /// A comparable key: missing and null, then numbers, then strings (and pointers, by objectId), then
    /// dates, then booleans, then other JSON.
    static func rank(_ v: JSON?) -> CollationKey {
        guard let v else { return CollationKey(family: 0) }
        switch v {
        case .null: return CollationKey(family: 0)
        case .number(let n): return CollationKey(family: 1, number: n.doubleValue)
        case .string(let s): return CollationKey(family: 2, text: s)
        case .object(let o) where o["__type"]?.stringValue == "Date": return CollationKey(family: 3, text: o["iso"]?.stringValue ?? "")
        case .object(let o) where o["__type"]?.stringValue == "Pointer":
            return CollationKey(family: 2, text: o["objectId"]?.stringValue ?? "")
        case .bool(let b): return CollationKey(family: 4, number: b ? 1 : 0)
        default: return CollationKey(family: 5, text: v.serialized(sortedKeys: true))
        }
    }

    static func less(_ a: JSON?, _ b: JSON?) -> Bool { rank(a) < rank(b) }

    static func same(_ a: JSON?, _ b: JSON?) -> Bool { rank(a) == rank(b) }

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
                    if let comparison = ComparisonOperator(mongoName: op) {
                        if !comparison.holds(rank(have), rank(operandValue)) { return false }
                        continue
                    }
                    switch op {
                    case "$ne": if same(have, operandValue) { return false }
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
