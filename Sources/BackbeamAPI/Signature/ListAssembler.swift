/// Assembles decoded pairs into the lists they denote (§2.2).
///
/// Per name, values keep arrival order, except that elements sent as `k[<n>]` are ordered by their
/// numeric index (`k[10]` after `k[9]`, not string order; Android and `qs` may emit them in any order);
/// equal indexes keep arrival order. When one name mixes forms, the index-sorted block takes the place
/// where its first indexed element arrived and the other elements stay where they arrived: that is
/// "concatenated in arrival order" with each SDK's own form kept intact.
enum ListAssembler {
    static func assemble(_ raw: [RawParameter], limits: ParameterLimits) throws(ParameterError) -> BackbeamParameters {
        var parameters = BackbeamParameters()
        parameters.reserveCapacity(raw.count)
        if !raw.contains(where: { if case .indexed = $0.form { return true } else { return false } }) {
            // No indexed element anywhere (iOS, browser, plain requests): arrival order is final.
            for pair in raw { parameters.append(pair.name, pair.value) }
            try checkLengths(parameters, limits: limits)
            return parameters
        }
        var order: [String] = []
        var groups: [BackbeamParameters.NameKey: [Int]] = [:]
        for (i, pair) in raw.enumerated() {
            let key = BackbeamParameters.NameKey(pair.name)
            if groups[key] == nil { order.append(pair.name) }
            groups[key, default: []].append(i)
        }
        for name in order {
            let members = groups[BackbeamParameters.NameKey(name)] ?? []
            parameters.append(name, contentsOf: ordered(members.map { raw[$0] }))
        }
        try checkLengths(parameters, limits: limits)
        return parameters
    }

    /// The values of one name's pairs in list order.
    private static func ordered(_ pairs: [RawParameter]) -> [String] {
        var indexed: [(index: ListIndex, arrival: Int, value: String)] = []
        var out: [String] = []
        var blockPosition: Int?
        for (arrival, pair) in pairs.enumerated() {
            if case .indexed(let index) = pair.form {
                if blockPosition == nil { blockPosition = out.count }
                indexed.append((index, arrival, pair.value))
            } else {
                out.append(pair.value)
            }
        }
        guard let blockPosition else { return out }
        // Sorted on (index, arrival) so that equal indexes keep arrival order whatever the sort's stability.
        indexed.sort { $0.index != $1.index ? $0.index < $1.index : $0.arrival < $1.arrival }
        out.insert(contentsOf: indexed.map(\.value), at: blockPosition)
        return out
    }

    private static func checkLengths(_ parameters: BackbeamParameters, limits: ParameterLimits) throws(ParameterError) {
        for entry in parameters.entries where entry.values.count > limits.maxListLength {
            throw .listTooLong(name: entry.name, limit: limits.maxListLength)
        }
    }
}
