import Core

/// ACL values (spec §4.9): keys `*`, a user id or `role:<name>`; values `{read?, write?}` booleans.
enum ACL {
    static let invalid = ParseError(123, "Invalid ACL.")

    /// Validates and normalises: `false` permissions and entries with no permission are dropped.
    static func normalize(_ value: JSON) throws -> JSONObject {
        guard let obj = value.objectValue else { throw invalid }
        var out = JSONObject()
        for (key, entry) in obj {
            guard !key.isEmpty, let perms = entry.objectValue else { throw invalid }
            if key.hasPrefix("role:") {
                let name = String(key.dropFirst(5))
                guard RoleName.isValid(name) else { throw invalid }
            }
            var normalized = JSONObject()
            for (perm, flag) in perms {
                guard perm == "read" || perm == "write", let b = flag.boolValue else { throw invalid }
                if b { normalized[perm] = true }
            }
            if !normalized.isEmpty { out[key] = .object(normalized) }
        }
        return out
    }

    /// The ACL with `userId` forced to read+write (a user can never lock themselves out, spec §5.2).
    static func forcingOwner(_ acl: JSONObject, _ userId: String) -> JSONObject {
        var out = acl
        out[userId] = ["read": true, "write": true]
        return out
    }
}

/// The read and write lists derived from an ACL, stored next to the object for SQL filtering.
struct ACLPermissions {
    var read: [String]?
    var write: [String]?

    init(_ acl: JSONObject?) {
        guard let acl else { return }
        var r: [String] = [], w: [String] = []
        for (key, entry) in acl {
            if entry["read"]?.boolValue == true { r.append(key) }
            if entry["write"]?.boolValue == true { w.append(key) }
        }
        read = r
        write = w
    }

    var readJSON: String? { read.map { JSON.array($0.map { .string($0) }).serialized() } }
    var writeJSON: String? { write.map { JSON.array($0.map { .string($0) }).serialized() } }

    /// Whether any member of `group` may read/write (nil list = no ACL = public).
    static func allows(_ acl: JSONObject?, _ permission: String, group: [String]) -> Bool {
        guard let acl else { return true }
        return group.contains { acl[$0]?[permission]?.boolValue == true }
    }
}

/// Role names: `^[0-9A-Za-z_\- ]+$` (spec §5.3, §11).
enum RoleName {
    static func isValid(_ name: String) -> Bool {
        !name.isEmpty && name.unicodeScalars.allSatisfy { s in
            (s >= "0" && s <= "9") || (s >= "A" && s <= "Z") || (s >= "a" && s <= "z") || s == "_" || s == "-" || s == " "
        }
    }
}
