/// Database name rules (spec §4.2).
public enum DatabaseName {
    /// Longest name accepted, in bytes.
    public static let maxLength = 238

    /// The users database, the only accepted name outside the pattern (P2, when user accounts are on).
    public static let users = "_users"

    /// Validates `name` (decoded, as received): it must match `^[a-z][a-z0-9_$()+/-]*$` and be at most
    /// 238 bytes. Breaking the pattern is checked first, as it says more about the name than its length.
    /// - Parameter allowsUsersDatabase: whether `_users` is accepted (P2).
    public static func validate(_ name: String, allowsUsersDatabase: Bool = false) throws(CouchError) {
        if allowsUsersDatabase, name == users { return }
        guard matchesPattern(name) else { throw .illegalDatabaseName(name) }
        guard name.utf8.count <= maxLength else { throw .databaseNameTooLong(name) }
    }

    /// `^[a-z][a-z0-9_$()+/-]*$` on the bytes (a non-ASCII byte never matches).
    private static func matchesPattern(_ name: String) -> Bool {
        var bytes = name.utf8.makeIterator()
        guard let first = bytes.next(), first >= UInt8(ascii: "a"), first <= UInt8(ascii: "z") else { return false }
        while let c = bytes.next() {
            switch c {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "_"), UInt8(ascii: "$"), UInt8(ascii: "("), UInt8(ascii: ")"),
                 UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "/"):
                continue
            default:
                return false
            }
        }
        return true
    }
}
