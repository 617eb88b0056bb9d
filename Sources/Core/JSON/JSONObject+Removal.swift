extension JSONObject {
    /// Removes every member named in `keys` (by UTF-8 bytes, as the subscript finds them) in one pass,
    /// keeping the order of the others. Removing k keys one at a time costs k passes over the members;
    /// this costs one, however many keys go.
    public mutating func removeValues(forKeys keys: [String]) {
        var doomed = Set<Int>()
        for key in keys {
            if let i = position(of: key) { doomed.insert(i) }
        }
        guard !doomed.isEmpty else { return }
        var kept: [(key: String, value: JSON)] = []
        kept.reserveCapacity(count - doomed.count)
        for (i, pair) in pairs.enumerated() where !doomed.contains(i) { kept.append(pair) }
        self = JSONObject(uniquePairs: kept, index: nil)
    }

    /// The members for which `isIncluded` is true, in order. One pass without key lookups (the keys are
    /// already distinct), where building the object member by member searches it for every key.
    public func keepingMembers(where isIncluded: (_ key: String, _ value: JSON) throws -> Bool) rethrows -> JSONObject {
        var kept: [(key: String, value: JSON)] = []
        kept.reserveCapacity(count)
        for pair in pairs where try isIncluded(pair.key, pair.value) { kept.append(pair) }
        return JSONObject(uniquePairs: kept, index: nil)
    }
}
