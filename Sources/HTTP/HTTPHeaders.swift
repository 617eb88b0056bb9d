/// Header fields in the order received or added. Repeated names are kept as separate entries; lookups
/// compare names case-insensitively (ASCII), as RFC 9110 requires.
public struct HTTPHeaders: Sendable, Sequence, ExpressibleByDictionaryLiteral, Equatable, CustomStringConvertible {
    /// One field.
    public typealias Element = (name: String, value: String)

    /// The fields, in order.
    public private(set) var entries: [Element]

    /// An empty header list.
    public init() { entries = [] }

    /// Fields from name/value pairs, in order.
    public init(_ pairs: [(String, String)]) {
        entries = pairs.map { (name: $0.0, value: $0.1) }
    }

    /// Fields from a literal, in the literal's order.
    public init(dictionaryLiteral elements: (String, String)...) {
        entries = elements.map { (name: $0.0, value: $0.1) }
    }

    /// Reserves room for `count` fields (the parser knows how many lines it saw).
    public mutating func reserveCapacity(_ count: Int) { entries.reserveCapacity(count) }

    /// The number of fields.
    public var count: Int { entries.count }

    /// True when there are no fields.
    public var isEmpty: Bool { entries.isEmpty }

    /// The first value of `name`, case-insensitively; nil when absent.
    public subscript(name: String) -> String? {
        // Borrowed through the buffer rather than copied out entry by entry: a lookup runs for every header
        // an API checks (a dozen per Parse request), and copying each entry retained and released both of
        // its strings. `namesEqual` rejects names of another length before looking at their bytes.
        entries.withUnsafeBufferPointer { buffer -> String? in
            for i in buffer.indices where HTTPHeaders.namesEqual(buffer[i].name, name) { return buffer[i].value }
            return nil
        }
    }

    /// Every value of `name`, in order.
    public func values(_ name: String) -> [String] {
        var result: [String] = []
        for entry in entries where HTTPHeaders.namesEqual(entry.name, name) { result.append(entry.value) }
        return result
    }

    /// Appends a field, keeping any existing ones of that name.
    public mutating func add(_ name: String, _ value: String) {
        entries.append((name: name, value: value))
    }

    /// Replaces every field of `name` with one field holding `value` (at the position of the first one,
    /// or at the end when there was none).
    public mutating func set(_ name: String, _ value: String) {
        if let first = entries.firstIndex(where: { HTTPHeaders.namesEqual($0.name, name) }) {
            entries[first] = (name: name, value: value)
            var index = entries.index(after: first)
            while index < entries.endIndex {
                if HTTPHeaders.namesEqual(entries[index].name, name) {
                    entries.remove(at: index)
                } else {
                    index = entries.index(after: index)
                }
            }
        } else {
            entries.append((name: name, value: value))
        }
    }

    /// Removes every field of `name`.
    public mutating func remove(_ name: String) {
        entries.removeAll { HTTPHeaders.namesEqual($0.name, name) }
    }

    /// True when at least one field of `name` is present.
    public func contains(_ name: String) -> Bool {
        entries.contains { HTTPHeaders.namesEqual($0.name, name) }
    }

    /// Iterates the fields in order.
    public func makeIterator() -> IndexingIterator<[Element]> { entries.makeIterator() }

    /// Equal when both hold the same fields in the same order (names compared case-insensitively).
    public static func == (lhs: HTTPHeaders, rhs: HTTPHeaders) -> Bool {
        guard lhs.entries.count == rhs.entries.count else { return false }
        for (a, b) in zip(lhs.entries, rhs.entries) {
            guard namesEqual(a.name, b.name), a.value == b.value else { return false }
        }
        return true
    }

    /// "Name: value" lines, for debugging.
    public var description: String {
        entries.map { "\($0.name): \($0.value)" }.joined(separator: "\n")
    }

    /// ASCII case-insensitive comparison without allocating (header names are tokens, so ASCII folding
    /// is exactly right; non-ASCII bytes must match exactly).
    @inlinable
    public static func namesEqual(_ a: String, _ b: String) -> Bool {
        // Most comparisons of a lookup are with other headers' names, which usually differ in length; the
        // byte count of a native string is stored, so this rejects them without touching the bytes.
        guard a.utf8.count == b.utf8.count else { return false }
        var a = a, b = b
        return a.withUTF8 { ua in
            b.withUTF8 { ub in
                guard ua.count == ub.count else { return false }
                for i in 0..<ua.count {
                    let x = ua[i], y = ub[i]
                    if x == y { continue }
                    // Setting bit 0x20 folds A-Z onto a-z; only letters may be folded.
                    let lx = x | 0x20
                    guard lx == (y | 0x20), lx >= 0x61, lx <= 0x7A else { return false }
                }
                return true
            }
        }
    }
}
