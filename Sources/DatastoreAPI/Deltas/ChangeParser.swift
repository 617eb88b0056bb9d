import Core

/// A syntactically valid delta: its changes, its accounted size and its canonical stored text.
public struct ParsedDelta: Sendable {
    /// The changes in order.
    public let changes: [Change]
    /// Delta size: 100 + Σ change sizes (§5.8).
    public let size: Int
}

/// Turns the JSON of a `changes` parameter into validated changes, or a message naming the change index.
public enum ChangeParser {
    /// A syntax error with the text sent as `{"error": ...}`.
    public struct Invalid: Error, Sendable, Equatable {
        /// Message, starting with `change <i>: ` when it concerns one change.
        public let message: String
    }

    /// Validates every change of `changes` (which must be a JSON array).
    public static func parse(_ changes: JSON) throws(Invalid) -> ParsedDelta {
        guard case .array(let items) = changes else { throw Invalid(message: "changes must be a JSON array") }
        var result: [Change] = []
        result.reserveCapacity(items.count)
        var size = 100
        for (index, item) in items.enumerated() {
            do {
                let (change, changeSize) = try parseChange(item)
                result.append(change)
                size += changeSize
            } catch {
                throw Invalid(message: "change \(index): \(error.reason)")
            }
        }
        return ParsedDelta(changes: result, size: size)
    }

    /// Parses one change and returns it with its accounted size.
    static func parseChange(_ item: JSON) throws(Values.Invalid) -> (Change, Int) {
        guard case .array(let parts) = item, let tagValue = parts.first else {
            throw Values.Invalid(reason: "a change must be a non-empty array")
        }
        guard case .string(let tag) = tagValue else { throw Values.Invalid(reason: "change tag must be a string") }
        let expectedArity: Int
        switch tag {
        case "I", "U": expectedArity = 4
        case "D": expectedArity = 3
        default: throw Values.Invalid(reason: "unknown change type \(Quote.echo(tag))")
        }
        guard parts.count == expectedArity else {
            throw Values.Invalid(reason: "change '\(tag)' must have \(expectedArity) elements, got \(parts.count)")
        }
        let tid = try name(parts[1], what: "table ID")
        let rid = try name(parts[2], what: "record ID")
        let key = RecordKey(tid: tid, rid: rid)
        switch tag {
        case "I":
            guard case .object(let fields) = parts[3] else { throw Values.Invalid(reason: "insert fields must be an object") }
            var size = 100
            for (field, value) in fields {
                try checkFieldName(field)
                do { size += 100 + (try Values.validateValue(value)) } catch {
                    throw Values.Invalid(reason: "field \(Quote.echo(field)): \(error.reason)")
                }
            }
            return (.insert(key, fields), size)
        case "U":
            guard case .object(let fields) = parts[3] else { throw Values.Invalid(reason: "update fields must be an object") }
            var ops: [(field: String, op: FieldOp)] = []
            var size = 100
            for (field, opJSON) in fields {
                try checkFieldName(field)
                do {
                    let (op, opSize) = try FieldOpParser.parse(opJSON)
                    ops.append((field, op))
                    size += 100 + opSize
                } catch {
                    throw Values.Invalid(reason: "field \(Quote.echo(field)): \(error.reason)")
                }
            }
            return (.update(key, ops), size)
        default:
            return (.delete(key), 100)
        }
    }

    private static func name(_ value: JSON, what: String) throws(Values.Invalid) -> String {
        guard case .string(let text) = value else { throw Values.Invalid(reason: "\(what) must be a string") }
        guard Identifiers.isValidName(text) else { throw Values.Invalid(reason: "invalid \(what) \(Quote.echo(text))") }
        return text
    }

    private static func checkFieldName(_ field: String) throws(Values.Invalid) {
        guard Identifiers.isValidName(field) else { throw Values.Invalid(reason: "invalid field name \(Quote.echo(field))") }
    }
}

/// Parses field operations (`["P", v]`, `["LI", i, atom]`, ...) with exact arity and integer indices.
enum FieldOpParser {
    /// Returns the op and the accounted size of its value (0 for ops without a value).
    static func parse(_ json: JSON) throws(Values.Invalid) -> (FieldOp, Int) {
        guard case .array(let parts) = json, let first = parts.first, case .string(let tag) = first else {
            throw Values.Invalid(reason: "a field operation must be an array starting with its type")
        }
        let arity: Int
        switch tag {
        case "P", "LD": arity = 2
        case "D", "LC": arity = 1
        case "LP", "LI", "LM": arity = 3
        default: throw Values.Invalid(reason: "unknown field operation \(Quote.echo(tag))")
        }
        guard parts.count == arity else {
            throw Values.Invalid(reason: "field operation '\(tag)' must have \(arity) elements, got \(parts.count)")
        }
        switch tag {
        case "P":
            let size = try Values.validateValue(parts[1])
            return (.put(parts[1]), size)
        case "D": return (.delete, 0)
        case "LC": return (.listCreate, 0)
        case "LP":
            let size = try Values.validateAtom(parts[2])
            return (.listPut(try index(parts[1]), parts[2]), size)
        case "LI":
            let size = try Values.validateAtom(parts[2])
            return (.listInsert(try index(parts[1]), parts[2]), size)
        case "LD": return (.listDelete(try index(parts[1])), 0)
        default: return (.listMove(try index(parts[1]), try index(parts[2])), 0)
        }
    }

    /// A list index: a JSON integer without fraction, exponent or sign.
    static func index(_ json: JSON) throws(Values.Invalid) -> Int {
        guard case .number(let n) = json, let value = Identifiers.parseCanonicalRev(n.text), let i = Int(exactly: value) else {
            throw Values.Invalid(reason: "list index must be a non-negative integer")
        }
        return i
    }
}
