import Core
import QueryKit

extension WhereCompiler {
    /// A comparison on a field (spec §7.4). Columns compare with texts only: ids with strings, the
    /// timestamps with dates or date strings (normalised); anything else matches nothing.
    func compare(_ ref: FieldRef, _ a: Atom, _ op: ComparisonOperator) -> QueryPredicate {
        switch ref.column {
        case .objectId?:
            guard case .string(let s) = a else { return .constant(false) }
            return .column(.objectId, op, s)
        case let column?:
            guard let ts = Self.timestamp(a) else { return .constant(false) }
            return .column(column, op, ts)
        case nil:
            break
        }
        // A Pointer field compared with a plain id compares the pointer's objectId.
        if case .pointer? = ref.type, case .string(let id) = a { return .pointerId(ref, op, id) }
        return .value(ref, op, a)
    }

    /// A date operand of a timestamp column, normalised; nil for other operands.
    static func timestamp(_ a: Atom) -> String? {
        switch a {
        case .date(let d): return d
        case .string(let s): return ParseDate.normalize(s)
        default: return nil
        }
    }

    mutating func equality(_ ref: FieldRef, _ value: JSON) throws -> QueryPredicate {
        let a = try Atom.from(value)
        if case .relation(let target)? = ref.type {
            guard case .pointer(let c, let id) = a, c == target else { return .constant(false) }
            return .relationHas(RelationField(className: className, field: ref.path[0]), member: id)
        }
        return compare(ref, a, .equal)
    }

    /// `$in` (lists flattened one level, spec §7.3).
    mutating func inList(_ ref: FieldRef, _ items: [JSON]) throws -> QueryPredicate {
        var flat: [JSON] = []
        for i in items { if let arr = i.arrayValue { flat += arr } else { flat.append(i) } }
        guard flat.count <= Self.maxListElements else { throw ParseError(102, "Too many elements in a $in, $nin or $all list.") }
        let atoms = try flat.map(Atom.from)
        if case .relation? = ref.type {
            let ids = atoms.compactMap { a -> String? in if case .pointer(_, let id) = a { return id }; return nil }
            return .relationHasAny(RelationField(className: className, field: ref.path[0]), members: ids)
        }
        switch ref.column {
        case .objectId?:
            return .columnIn(.objectId, atoms.compactMap { a -> String? in if case .string(let s) = a { return s }; return nil })
        case let column?:
            return .columnIn(column, atoms.compactMap(Self.timestamp))
        case nil:
            break
        }
        if atoms.isEmpty { return .constant(false) }
        return .valueIn(ref, atoms)
    }
}
