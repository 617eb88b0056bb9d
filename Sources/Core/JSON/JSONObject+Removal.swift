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
}
