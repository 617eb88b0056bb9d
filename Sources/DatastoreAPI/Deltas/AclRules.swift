import Core

/// Roles of the sharing model (§6, §7).
public enum Role {
    /// Owner: everything.
    public static let owner = 3000
    /// Editor: read and write, including `:acl` within the rules.
    public static let editor = 2000
    /// Viewer: read only.
    public static let viewer = 1000
}

/// The rules the `:acl` table must keep (§7.3).
public enum AclRules {
    /// The reserved table that holds roles.
    public static let table = ":acl"

    /// Per-change rule, checked while applying: no `:acl` change in a private datastore, none to the owner's record.
    public static func checkChange(index: Int, change: Change, shareable: Bool, ownerUid: Int64) throws {
        guard change.key.tid == table else { return }
        guard shareable else { throw ApplyError(index, ":acl changes are not allowed in a private datastore") }
        if change.key.rid == "u\(ownerUid)" { throw ApplyError(index, "the owner's role cannot be changed") }
    }

    /// Final-state rule for every `:acl` record the delta inserted or updated and that still exists.
    /// `userExists` tells whether a uid names an existing user.
    public static func checkFinal(_ copy: WorkingCopy, userExists: (Int64) throws -> Bool) throws {
        for (key, record) in copy.touched where key.tid == table {
            guard let fields = record.fields, record.lastChange >= 0 else { continue }
            let index = record.lastChange
            if let uid = userPrincipal(key.rid) {
                guard try userExists(uid) else { throw ApplyError(index, "no such user \(Quote.echo(key.rid))") }
            } else if key.rid != "public" && key.rid != "team" {
                throw ApplyError(index, "invalid :acl principal \(Quote.echo(key.rid))")
            }
            guard fields.count == 1, let role = fields["role"], grantedRole(role) != nil else {
                throw ApplyError(index, ":acl record must have exactly one field 'role' of {\"I\": \"1000\"} or {\"I\": \"2000\"}")
            }
        }
    }

    /// `u<uid>` with a positive decimal uid without leading zeros → the uid.
    public static func userPrincipal(_ rid: String) -> Int64? {
        guard rid.hasPrefix("u") else { return nil }
        let digits = String(rid.dropFirst())
        guard let first = digits.utf8.first, first != 0x30, let uid = Identifiers.parseCanonicalRev(digits), uid > 0 else {
            return nil
        }
        return uid
    }

    /// The role a stored `role` value grants: only `{"I": "1000"}` and `{"I": "2000"}` are allowed.
    public static func grantedRole(_ value: JSON) -> Int? {
        guard case .object(let object) = value, object.count == 1, case .string(let text)? = object["I"] else { return nil }
        switch text {
        case "1000": return Role.viewer
        case "2000": return Role.editor
        default: return nil
        }
    }
}
