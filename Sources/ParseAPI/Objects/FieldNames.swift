import Core
import QueryKit

/// Name rules of spec §4.1-§4.3.
enum FieldNames {
    /// `^[A-Za-z][A-Za-z0-9_]*$`
    static func isValid(_ s: String) -> Bool { JSONPath.isIdentifier(s) }

    static func isAlpha(_ c: UInt8) -> Bool { JSONPath.isASCIILetter(c) }

    /// A top-level field a client may write (not `className`/`length`).
    static func isWritable(_ s: String) -> Bool { isValid(s) && s != "className" && s != "length" }

    static func invalidField(_ name: String) -> ParseError { ParseError(105, "Invalid field name: \(name).") }

    /// The system classes reachable over the API.
    static let systemClasses: Set<String> = ["_User", "_Role", "_Session", "_Installation"]

    /// A valid class name (spec §4.1); throws 103 otherwise.
    static func checkClassName(_ name: String) throws {
        guard isValidClassName(name) else { throw ParseError.invalidClassName(name) }
    }

    static func isValidClassName(_ name: String) -> Bool {
        systemClasses.contains(name) || (name.utf8.count <= 128 && isValid(name))
    }

    /// Object ids in URL paths (`^[A-Za-z0-9_-]{1,128}$`); anything else designates no object.
    static func isPlausibleObjectId(_ s: String) -> Bool {
        !s.isEmpty && s.utf8.count <= 128
            && s.utf8.allSatisfy { isAlpha($0) || ($0 >= 48 && $0 <= 57) || $0 == 95 || $0 == 45 }
    }

    /// Custom object ids (`^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$`, so never `role:`-shaped).
    static func isValidCustomObjectId(_ s: String) -> Bool {
        guard let f = s.utf8.first, isAlpha(f) || (f >= 48 && f <= 57) else { return false }
        return isPlausibleObjectId(s)
    }

    /// Default fields present on every class.
    static let defaultFields: Set<String> = ["objectId", "createdAt", "updatedAt", "ACL"]

    /// Built-in fields of the system classes (spec §4.10), with their types.
    static func builtinFields(_ className: String) -> [(String, FieldType)] {
        switch className {
        case "_User":
            return [("username", .string), ("password", .string), ("email", .string), ("emailVerified", .boolean),
                    ("authData", .object)]
        case "_Role":
            return [("name", .string), ("users", .relation("_User")), ("roles", .relation("_Role"))]
        case "_Session":
            return [("user", .pointer("_User")), ("installationId", .string), ("sessionToken", .string),
                    ("expiresAt", .date), ("createdWith", .object), ("restricted", .boolean)]
        case "_Installation":
            return [("installationId", .string), ("deviceToken", .string), ("channels", .array),
                    ("deviceType", .string), ("pushType", .string), ("GCMSenderId", .string), ("timeZone", .string),
                    ("localeIdentifier", .string), ("badge", .number), ("appVersion", .string), ("appName", .string),
                    ("appIdentifier", .string), ("parseVersion", .string)]
        default:
            return []
        }
    }
}

/// The forbidden-key scan of spec §4.3, over every key at every depth (never stopping early).
enum ForbiddenKeys {
    static func check(_ value: JSON) throws {
        var stack: [JSON] = [value]
        while let v = stack.popLast() {
            switch v {
            case .object(let o):
                for (k, child) in o {
                    try checkKey(k, child)
                    stack.append(child)
                }
            case .array(let a):
                stack.append(contentsOf: a)
            default:
                break
            }
        }
    }

    /// Also used for the segments of dotted update paths (`obj.constructor.x`).
    static func checkKey(_ k: String, _ value: JSON?) throws {
        if k == "__proto__" || k == "constructor" {
            throw ParseError(105, "Prohibited keyword in request data: {\"key\":\"\(k)\"}.")
        }
        if k == "_bsontype", value?.stringValue == "Code" {
            throw ParseError(105, "Prohibited keyword in request data: {\"key\":\"_bsontype\",\"value\":\"Code\"}.")
        }
    }
}
