import Core

/// The schema types of spec §4.4.
enum FieldType: Sendable, Equatable {
    case string, number, boolean, date, object, array, geoPoint, file, bytes, polygon, acl
    case pointer(String)
    case relation(String)

    /// How the type prints in error messages: `String`, `Pointer<_User>`, `Relation<Player>`.
    var displayName: String {
        switch self {
        case .pointer(let c): return "Pointer<\(c)>"
        case .relation(let c): return "Relation<\(c)>"
        default: return typeName
        }
    }

    /// The `type` value of the schema JSON form.
    var typeName: String {
        switch self {
        case .string: return "String"
        case .number: return "Number"
        case .boolean: return "Boolean"
        case .date: return "Date"
        case .object: return "Object"
        case .array: return "Array"
        case .geoPoint: return "GeoPoint"
        case .file: return "File"
        case .bytes: return "Bytes"
        case .polygon: return "Polygon"
        case .acl: return "ACL"
        case .pointer: return "Pointer"
        case .relation: return "Relation"
        }
    }

    var targetClass: String? {
        switch self {
        case .pointer(let c), .relation(let c): return c
        default: return nil
        }
    }

    /// `{"type":"Pointer","targetClass":"_User"}` as in `/schemas` answers.
    var schemaJSON: JSONObject {
        var o: JSONObject = ["type": .string(typeName)]
        if let t = targetClass { o["targetClass"] = .string(t) }
        return o
    }

    /// From a type name (and target class for Pointer/Relation). Nil for an unknown name.
    static func named(_ name: String, target: String?) -> FieldType? {
        switch name {
        case "String": return .string
        case "Number": return .number
        case "Boolean": return .boolean
        case "Date": return .date
        case "Object": return .object
        case "Array": return .array
        case "GeoPoint": return .geoPoint
        case "File": return .file
        case "Bytes": return .bytes
        case "Polygon": return .polygon
        case "ACL": return .acl
        case "Pointer": return target.map { .pointer($0) } ?? .pointer("")
        case "Relation": return target.map { .relation($0) } ?? .relation("")
        default: return nil
        }
    }
}
