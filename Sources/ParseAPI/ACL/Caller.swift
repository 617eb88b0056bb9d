/// Who is making a request (spec §5.1): master, read-only master, a user with a session, or public.
struct Caller: Sendable {
    enum Level: Sendable, Equatable { case master, readOnlyMaster, user, anonymousPublic }

    var level: Level
    var userId: String?
    var sessionId: String?
    var isAnonymousUser = false
    var roles: [String] = []

    static let publicCaller = Caller(level: .anonymousPublic)
    static let master = Caller(level: .master)

    /// Master or read-only master: bypasses ACL, CLP and protected fields for reads.
    var readsAsMaster: Bool { level == .master || level == .readOnlyMaster }
    var isMaster: Bool { level == .master }
    var isReadOnlyMaster: Bool { level == .readOnlyMaster }

    /// The ACL group: `*`, the user's id, `role:<name>` per role.
    var aclGroup: [String] {
        var g = ["*"]
        if let userId { g.append(userId) }
        g += roles.map { "role:" + $0 }
        return g
    }
}
