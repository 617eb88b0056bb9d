extension JSONObject: Sequence {
    /// Iterates members in order as `(key:, value:)` pairs.
    public func makeIterator() -> IndexingIterator<[(key: String, value: JSON)]> {
        pairs.makeIterator()
    }

    /// Exact member count, so `Array(object)` allocates once.
    public var underestimatedCount: Int { pairs.count }
}

extension JSONObject: ExpressibleByDictionaryLiteral {
    /// An object literal in the order written; a repeated key replaces the earlier value.
    public init(dictionaryLiteral elements: (String, JSON)...) { self.init(elements) }
}

extension JSONObject: Hashable {
    /// Objects are equal when they hold the same keys (by UTF-8 bytes) with equal values, in any order:
    /// member order carries no meaning in JSON.
    public static func == (a: JSONObject, b: JSONObject) -> Bool {
        guard a.count == b.count else { return false }
        for (key, value) in a.pairs {
            guard let other = b[key], other == value else { return false }
        }
        return true
    }

    /// Order-independent hash, consistent with `==`: member hashes are combined by wrapping addition.
    public func hash(into hasher: inout Hasher) {
        var sum = 0
        for (key, value) in pairs {
            var member = Hasher()
            ObjectKey(key).hash(into: &member)
            member.combine(value)
            sum = sum &+ member.finalize()
        }
        hasher.combine(count)
        hasher.combine(sum)
    }
}

extension JSONObject: CustomStringConvertible {
    /// Compact JSON text of the object.
    public var description: String { JSON.object(self).serialized() }
}

extension JSON: CustomStringConvertible {
    /// Compact JSON text of the value.
    public var description: String { serialized() }
}
