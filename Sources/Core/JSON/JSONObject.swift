/// A JSON object: members in insertion order, each key at most once.
///
/// Keys are compared by their exact UTF-8 bytes, as JSON defines them, rather than by Swift's
/// canonical-equivalence `String` equality: `"\u00e9"` and `"e\u0301"` are two different keys.
/// Small objects are searched linearly; from `indexThreshold` members on, a key -> position table keeps
/// lookups constant-time so that building or reading large objects is not quadratic.
public struct JSONObject: Sendable {
    /// Members in order.
    public private(set) var pairs: [(key: String, value: JSON)]
    /// Key -> position in `pairs`, kept only for objects of `indexThreshold` members or more.
    private var index: [ObjectKey: Int]?

    /// Below this many members a linear scan over short keys beats hashing them.
    static let indexThreshold = 12

    /// An empty object.
    public init() {
        pairs = []
        index = nil
    }

    /// An object from pairs in order; a later duplicate replaces the earlier value in the earlier position.
    public init(_ pairs: [(String, JSON)]) {
        self.init()
        self.pairs.reserveCapacity(pairs.count)
        for (key, value) in pairs { self[key] = value }
    }

    /// Wraps members already known to have distinct keys (the parser's path); `index`, when given,
    /// maps every key to its position.
    init(uniquePairs: [(key: String, value: JSON)], index: [ObjectKey: Int]?) {
        self.pairs = uniquePairs
        self.index = uniquePairs.count >= Self.indexThreshold ? index : nil
        if self.index == nil, uniquePairs.count >= Self.indexThreshold { rebuildIndex() }
    }

    /// Number of members.
    public var count: Int { pairs.count }

    /// True when there are no members.
    public var isEmpty: Bool { pairs.isEmpty }

    /// The keys in order.
    public var keys: [String] { pairs.map(\.key) }

    /// The values in key order.
    public var values: [JSON] { pairs.map(\.value) }

    /// The value for `key`. Setting nil removes the member; setting an existing key keeps its position;
    /// setting a new key appends it.
    public subscript(key: String) -> JSON? {
        get {
            guard let i = position(of: key) else { return nil }
            return pairs[i].value
        }
        set {
            if let newValue {
                if let i = position(of: key) { pairs[i].value = newValue } else { append(key, newValue) }
            } else {
                removeValue(forKey: key)
            }
        }
    }

    /// True when `key` is a member.
    public func contains(_ key: String) -> Bool { position(of: key) != nil }

    /// Removes `key` and returns its value, keeping the order of the other members.
    @discardableResult
    public mutating func removeValue(forKey key: String) -> JSON? {
        guard let i = position(of: key) else { return nil }
        let removed = pairs.remove(at: i)
        if pairs.count < Self.indexThreshold {
            index = nil
        } else {
            // Shift the positions after `i` down by one; mapValues keeps the table's layout, so no key
            // is hashed again.
            index?[ObjectKey(removed.key)] = nil
            index = index?.mapValues { $0 > i ? $0 - 1 : $0 }
        }
        return removed.value
    }

    /// Position of `key` in `pairs`, comparing UTF-8 bytes.
    func position(of key: String) -> Int? {
        if let index { return index[ObjectKey(key)] }
        for i in pairs.indices where Self.sameKey(pairs[i].key, key) { return i }
        return nil
    }

    /// Appends a member known not to be present.
    mutating func append(_ key: String, _ value: JSON) {
        pairs.append((key: key, value: value))
        if index != nil {
            index?[ObjectKey(key)] = pairs.count - 1
        } else if pairs.count >= Self.indexThreshold {
            rebuildIndex()
        }
    }

    private mutating func rebuildIndex() {
        guard pairs.count >= Self.indexThreshold else {
            index = nil
            return
        }
        var table = [ObjectKey: Int](minimumCapacity: pairs.count)
        for (i, pair) in pairs.enumerated() { table[ObjectKey(pair.key)] = i }
        index = table
    }

    /// Byte equality of two keys.
    static func sameKey(_ a: String, _ b: String) -> Bool {
        // The lengths rule out nearly every mismatch; the bytes, compared where they lie (a comparison
        // generic over `String.UTF8View` cost about 200 instructions per key), settle the rest, such as
        // "\u{E9}" versus "e\u{301}", which Swift's `==` calls equal.
        guard a.utf8.count == b.utf8.count else { return false }
        let same = a.utf8.withContiguousStorageIfAvailable { x in
            b.utf8.withContiguousStorageIfAvailable { y in x.elementsEqual(y) }
        }
        return (same ?? nil) ?? a.utf8.elementsEqual(b.utf8)
    }
}

/// A dictionary key that hashes and compares a string by its UTF-8 bytes.
struct ObjectKey: Hashable, Sendable {
    let string: String
    init(_ string: String) { self.string = string }
    static func == (a: ObjectKey, b: ObjectKey) -> Bool { JSONObject.sameKey(a.string, b.string) }
    func hash(into hasher: inout Hasher) {
        var text = string
        text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        hasher.combine(0xFF as UInt8)   // 0xFF never occurs in UTF-8: terminates the key
    }
}
