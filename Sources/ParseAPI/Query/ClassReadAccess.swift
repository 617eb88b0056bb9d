import Core

/// What one caller may read of one class (spec §5), decided in one place for every path by which a request
/// reads a class: a find or get of it, a subquery on it (`$inQuery`, `$notInQuery`, `$select`,
/// `$dontSelect`), the owner of a `$relatedTo`, an included pointer, and the keys a request compares, sorts,
/// selects or groups by. A path that reads another class's fields through a query can therefore learn
/// exactly what a direct query of that class would show, and nothing more.
struct ClassReadAccess {
    let className: String
    let schema: ClassSchema?
    let caller: Caller
    /// Why the caller may not make this read at all (nil when it may). A direct query answers with it; an
    /// include drops the pointers, and a `$relatedTo` on an owner the caller may not read matches nothing.
    let refusal: ParseError?
    /// The class-level permission outcome (`.allowed` when refused: the refusal comes first). A find that
    /// also counts narrows it to the `count` permission's pointer fields.
    var outcome: CLP.Outcome
    /// Protected fields that always apply (nil when none does), and the per-object `userField:` lists.
    let protectedLists: (base: Set<String>?, userFields: [(field: String, list: Set<String>)])

    /// The rights of `caller` for `operation` (`find`, `get`; nil to check only what applies to every read,
    /// as for a query that only counts, whose `count` permission the caller checks).
    init(className: String, schema: ClassSchema?, caller: Caller, config: ParseConfig, operation: String?) {
        self.className = className
        self.schema = schema
        self.caller = caller
        var refusal: ParseError?
        var outcome = CLP.Outcome.allowed
        do {
            try Self.checkClass(className, caller: caller, operation: operation)
            try Schemas.requireReachable(schema, className: className, caller: caller, config: config)
            if let operation { outcome = try CLP.check(operation, className: className, schema: schema, caller: caller) }
        } catch let e as ParseError {
            refusal = e
        } catch {
            refusal = ParseError(1, "Internal server error.")
        }
        self.refusal = refusal
        self.outcome = outcome
        protectedLists = CLP.protectedLists(className: className, schema: schema, caller: caller,
                                            serverWide: config.protectedFields)
    }

    /// The keys the caller may compare, sort, select or group by.
    var keys: QueryKeyRules { QueryKeyRules(className: className, caller: caller, protected: protected) }

    /// The rules of the system classes that come before their schema (spec §10, §12): clients never list
    /// installations, and only a signed-in user lists sessions (their own).
    static func checkClass(_ className: String, caller: Caller, operation: String?) throws {
        guard !caller.readsAsMaster else { return }
        if className == "_Installation" && operation == "find" {
            throw ParseError(119, "Clients aren't allowed to perform the find operation on the installation collection.")
        }
        if className == "_Session" && caller.userId == nil { throw ParseError.invalidSessionToken }
    }

    /// Throws the refusal, if any.
    func require() throws {
        if let refusal { throw refusal }
    }

    /// Fields hidden from the caller on every object (spec §5.6).
    var protected: Set<String> { protectedLists.base ?? [] }

    /// The conditions every object the caller reads through a query meets: its ACL lets the caller read it,
    /// pointer permissions where the CLP restricts the operation to them (§5.5), and for sessions, the
    /// caller's own (§3.5). None for the master key.
    var terms: [QueryPredicate] {
        var terms = QueryAccess.terms(caller: caller, outcome: outcome)
        if className == "_Session" && !caller.readsAsMaster {
            terms.append(.storedText(path: ["user", "objectId"], equals: caller.userId ?? ""))
        }
        return terms
    }

    /// Whether the caller may read a loaded object (the same conditions as `terms`, for reads by id that do
    /// not go through a query). False for every object when the read is refused.
    func canRead(_ object: StoredObject) -> Bool {
        guard refusal == nil else { return false }
        if caller.readsAsMaster { return true }
        guard ACLPermissions.allows(object.acl, "read", group: caller.aclGroup) else { return false }
        if className == "_Session" && object.data["user"]?["objectId"]?.stringValue != caller.userId { return false }
        if case .pointerRestricted(let fields) = outcome, !CLP.objectMatches(fields, userId: caller.userId, object) {
            return false
        }
        return true
    }

    /// The fields hidden from the caller on one object: the lists that apply to every object, narrowed by the
    /// `userField:` lists whose pointer names the caller; none on the caller's own `_User` object.
    func protectedFields(for object: StoredObject) -> Set<String> {
        if className == "_User" && object.objectId == caller.userId { return [] }
        guard !protectedLists.userFields.isEmpty else { return protected }
        return CLP.protectedFields(for: object, base: protectedLists.base, userFields: protectedLists.userFields,
                                   caller: caller)
    }
}

/// The keys of one class a caller may use in a query (spec §5.6, §7.2): in a `where` (at any nesting), as an
/// `order` key, as the `key` of `$select`/`$dontSelect` or a `$relatedTo`, and as a `distinct` field. One
/// rule for all of them, since each reads the key's values as surely as a comparison does (an order or a
/// subquery's matches are an oracle for them).
struct QueryKeyRules {
    let className: String
    /// The caller's protected fields of the class.
    let protected: Set<String>
    /// Whether the caller holds the master key (which alone may query `authData`).
    let isMaster: Bool

    init(className: String, caller: Caller, protected: Set<String>) {
        self.className = className
        self.protected = protected
        isMaster = caller.isMaster
    }

    /// Throws 105 for the sensitive keys of `_User` (a password; `authData` for all but the master key) and
    /// 119 for a key whose first segment is a protected field.
    func check(_ key: String) throws {
        let first = key.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? key
        try check(key, first: first)
    }

    /// `check` with the key's first segment already split off.
    func check(_ key: String, first: String) throws {
        if className == "_User", first == "password" || first == "authData", !isMaster || first == "password" {
            throw ParseError(105, "Invalid key name: \(key)")
        }
        if protected.contains(first) {
            throw ParseError(119, "This user is not allowed to query \(key) on class \(className)")
        }
    }
}
