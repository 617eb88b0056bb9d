/// The caller's access terms of a query (spec §5): objects whose ACL lets the caller read them and, where
/// the class-level permissions restrict the operation to pointer fields (§5.5), objects whose named
/// pointer fields (or arrays of pointers) point to the caller. The master key reads without them.
enum QueryAccess {
    static func terms(caller: Caller, outcome: CLP.Outcome) -> [QueryPredicate] {
        var terms: [QueryPredicate] = []
        if !caller.readsAsMaster { terms.append(.readable(by: ReaderGroup(caller))) }
        if case .pointerRestricted(let fields) = outcome { terms.append(pointerCondition(fields, userId: caller.userId)) }
        return terms
    }

    /// Objects one of whose `fields` points to the user; nothing for a caller without a user.
    static func pointerCondition(_ fields: [String], userId: String?) -> QueryPredicate {
        guard let userId else { return .constant(false) }
        let valid = fields.filter(FieldNames.isValid)
        return valid.isEmpty ? .constant(false) : .pointsToUser(fields: valid, userId: userId)
    }
}
