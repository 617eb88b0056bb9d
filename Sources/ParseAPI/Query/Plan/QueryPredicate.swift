import QueryKit
import Core

/// A condition on the objects of one class, independent of the storage engine: which value is compared,
/// how, and with what. Built by `WhereCompiler` (and the access checks of `QueryRunner`); a store renders
/// it in its own language.
///
/// Unless stated otherwise, a condition on a field that may hold an array also holds when one element
/// meets it (spec §7.4), and values of another type family never meet a comparison.
indirect enum QueryPredicate: Sendable {
    /// Always true, or always false.
    case constant(Bool)
    /// Every part holds (true when there are none).
    case allOf([QueryPredicate])
    /// At least one part holds (false when there are none).
    case anyOf([QueryPredicate])
    /// No part holds (`$nor`); a part that cannot be decided counts as not holding.
    case noneOf([QueryPredicate])
    /// The part does not hold, or cannot be decided (`$ne`, `$nin`, `$notInQuery`, `$dontSelect`).
    case not(QueryPredicate)

    /// A column compared with a text value (an id, or a normalised timestamp).
    case column(Column, ComparisonOperator, String)
    /// A column's value is one of the given texts.
    case columnIn(Column, [String])

    /// A field's value compared with an operand.
    case value(FieldRef, ComparisonOperator, Atom)
    /// A field's value is one of the operands (`$in`).
    case valueIn(FieldRef, [Atom])
    /// A Pointer field's `objectId` compared with an id.
    case pointerId(FieldRef, ComparisonOperator, String)
    /// A field holds a value other than null (`$exists: true`), or does not (`false`).
    case exists(FieldRef, Bool)
    /// A field is an array holding an element for each match (`$all`; with none: just an array).
    case containsAll(FieldRef, [ElementMatch])
    /// A field is an array all of whose elements are among the operands (`$containedBy`).
    case containedBy(FieldRef, [Atom])
    /// A field's text (or an element's) matches a regular expression that is one literal.
    case matchesLiteral(FieldRef, RegexLiteral)
    /// The text at a path of the stored object (hidden fields included) equals a value.
    case storedText(path: [String], equals: String)

    /// The object's relation field holds the member.
    case relationHas(RelationField, member: String)
    /// The object's relation field holds one of the members.
    case relationHasAny(RelationField, members: [String])
    /// The object is a member of another object's relation (`$relatedTo`).
    case memberOf(RelationField, ownerId: String)

    /// A Pointer field (or an element of an array of pointers) points to an object the subquery selects.
    case pointsInto(FieldRef, Subquery)
    /// A field's value is the `key` value of an object the subquery selects (`$select`).
    case selectedBy(FieldRef, Subquery)

    /// The object matches a full-text search.
    case textSearch(TextSearch)

    /// A GeoPoint field, within each of the distances (radians) of a point (`$nearSphere`).
    case near(FieldRef, GeoPoint, maxDistances: [Double])
    /// A GeoPoint field inside a box; a south-west longitude east of the north-east one wraps across the
    /// antimeridian.
    case withinBox(FieldRef, southWest: GeoPoint, northEast: GeoPoint)
    /// A GeoPoint field inside a polygon or on its boundary.
    case withinPolygon(FieldRef, [GeoPoint])
    /// A GeoPoint field within a distance (radians) of a point.
    case withinSphere(FieldRef, center: GeoPoint, radius: Double)
    /// A Polygon field contains a point.
    case polygonContains(FieldRef, GeoPoint)

    /// The object's ACL lets one of the group's names read it (or it has none).
    case readable(by: ReaderGroup)
    /// One of the pointer fields (or an element of an array of pointers) points to the user (spec §5.5).
    case pointsToUser(fields: [String], userId: String)
}

/// A column every object has, outside its stored fields.
enum Column: Sendable, Equatable {
    case objectId, createdAt, updatedAt
}

/// A relation field of a class: its owner class and field name.
struct RelationField: Sendable, Equatable {
    let className: String
    let field: String
}

/// What one element of a `$all` array must match.
enum ElementMatch: Sendable {
    case equals(Atom)
    case literal(RegexLiteral)
}

/// A field reference in a `where` or `order`: a column (`objectId`, `createdAt`, `updatedAt`) or a path
/// into the stored object, with what the schema says about it.
struct FieldRef: Sendable {
    let path: [String]
    /// The column, for the one-segment names of the columns; nil for a stored field.
    let column: Column?
    /// The schema type when the path is one top-level field of known type. Writes are checked against
    /// it, so every stored value of the field has it (or is null or absent).
    let type: FieldType?
    /// True for `pointerField.x`: dotted paths through a Pointer match nothing (spec §7.4).
    let isPointerSubpath: Bool

    init(path: [String], schema: ClassSchema?) {
        self.path = path
        if path.count == 1 {
            switch path[0] {
            case "objectId": column = .objectId
            case "createdAt": column = .createdAt
            case "updatedAt": column = .updatedAt
            default: column = nil
            }
        } else {
            column = nil
        }
        let top = path.first.flatMap { schema?.field($0)?.type }
        type = path.count == 1 ? top : nil
        if path.count > 1, case .pointer? = top { isPointerSubpath = true } else { isPointerSubpath = false }
    }

    var isColumn: Bool { column != nil }

    /// The stored field's type when it is known and its values are never arrays, so a condition need not
    /// look at array elements.
    var isScalar: Bool { type != nil && type != .array }
}

/// A comparable operand of a `where` (spec §7.4), in its normalised form.
enum Atom: Sendable {
    case null, bool(Bool), number(JSONNumber), string(String), date(String), pointer(String, String), json(JSON)

    static func from(_ v: JSON) throws -> Atom {
        switch v {
        case .null: return .null
        case .bool(let b): return .bool(b)
        case .number(let n): return .number(n)
        case .string(let s): return .string(s)
        case .array: return .json(try Values.normalize(v))
        case .object(let o):
            switch o["__type"]?.stringValue {
            case "Date":
                guard let iso = o["iso"]?.stringValue, let ts = ParseDate.normalize(iso) else {
                    throw ParseError(107, "bad atom: \(v.serialized())")
                }
                return .date(ts)
            case "Pointer", "Object":
                guard let c = o["className"]?.stringValue, let id = o["objectId"]?.stringValue else {
                    throw ParseError(107, "bad atom: \(v.serialized())")
                }
                return .pointer(c, id)
            case nil:
                return .json(v)
            default:
                guard let n = try? Values.normalize(v) else { throw ParseError(107, "bad atom: \(v.serialized())") }
                return .json(n)
            }
        }
    }
}
