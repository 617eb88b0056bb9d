import Core

/// A database's `_security` object (spec §3.2.8, §2.8): who administers the database and who may use it, by
/// user name and by role.
struct SecurityObject: Sendable, Equatable {
    /// One `admins` or `members` section.
    struct Group: Sendable, Equatable {
        var names: [String] = []
        var roles: [String] = []

        var isEmpty: Bool { names.isEmpty && roles.isEmpty }

        /// Whether `name` or one of `roles` is listed.
        func matches(name: String?, roles userRoles: [String]) -> Bool {
            if let name, names.contains(name) { return true }
            return userRoles.contains(where: roles.contains)
        }
    }

    var admins = Group()
    var members = Group()

    /// The object of a database that never had one: `{}`.
    static let empty = SecurityObject()

    /// Validates a `PUT /{db}/_security` body with CouchDB's reasons. `members` falls back to a legacy
    /// `readers` member; other members of the object are kept as they were sent (the caller stores the text).
    init(validating json: JSON) throws(CouchError) {
        guard case .object(let object) = json else { throw CouchError.badRequest("Security object must be a JSON object") }
        admins = try Self.group(object["admins"])
        members = try Self.group(object["members"] ?? object["readers"])
    }

    /// The stored object (already validated when it was written). A damaged one grants nothing beyond the
    /// server admin rather than failing every request.
    init(stored bytes: [UInt8]) {
        guard let json = try? CouchJSON.parse(bytes), let parsed = try? SecurityObject(validating: json) else { return }
        self = parsed
    }

    init() {}

    private static func group(_ value: JSON?) throws(CouchError) -> Group {
        guard let value, !value.isNull else { return Group() }
        guard case .object(let object) = value else {
            throw CouchError.badRequest("admins or members must be a JSON list of strings")
        }
        return Group(names: try strings(object["names"], "names"), roles: try strings(object["roles"], "roles"))
    }

    private static func strings(_ value: JSON?, _ key: String) throws(CouchError) -> [String] {
        guard let value else { return [] }
        guard case .array(let items) = value else { throw CouchError.badRequest("\(key) must be a JSON list of strings") }
        var out: [String] = []
        out.reserveCapacity(items.count)
        for item in items {
            guard case .string(let text) = item else { throw CouchError.badRequest("\(key) must be a JSON list of strings") }
            out.append(text)
        }
        return out
    }
}
