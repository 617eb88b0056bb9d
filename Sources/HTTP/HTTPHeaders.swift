/// Header fields in the order received or added. Repeated names are kept as separate entries; lookups
/// compare names case-insensitively (ASCII), as RFC 9110 requires.
public struct HTTPHeaders: Sendable, Sequence, ExpressibleByDictionaryLiteral, Equatable, CustomStringConvertible {
    /// One field.
    public typealias Element = (name: String, value: String)

    /// One field as stored: a struct rather than the tuple `Element`, because an array of tuples is copied
    /// and destroyed through the runtime's generic tuple witnesses, field by field, and every request
    /// creates, copies and frees a few of these lists.
    @usableFromInline
    struct Field: Sendable {
        @usableFromInline var name: String
        @usableFromInline var value: String

        @usableFromInline
        init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    @usableFromInline var fields: [Field]

    /// The fields, in order.
    public var entries: [Element] { fields.map { (name: $0.name, value: $0.value) } }

    /// An empty header list.
    public init() { fields = [] }

    /// Fields from name/value pairs, in order.
    public init(_ pairs: [(String, String)]) {
        fields = pairs.map { Field(name: $0.0, value: $0.1) }
    }

    /// Fields from a literal, in the literal's order.
    public init(dictionaryLiteral elements: (String, String)...) {
        fields = elements.map { Field(name: $0.0, value: $0.1) }
    }

    /// Reserves room for `count` fields (the parser knows how many lines it saw).
    public mutating func reserveCapacity(_ count: Int) { fields.reserveCapacity(count) }

    /// The number of fields.
    public var count: Int { fields.count }

    /// True when there are no fields.
    public var isEmpty: Bool { fields.isEmpty }

    /// The first value of `name`, case-insensitively; nil when absent.
    public subscript(name: String) -> String? {
        // Borrowed through the buffer rather than copied out entry by entry: a lookup runs for every header
        // an API checks (a dozen per Parse request), and copying each entry retained and released both of
        // its strings. `namesEqual` rejects names of another length before looking at their bytes.
        // The name's length is read once; a field of another length is passed over without a call.
        let length = name.utf8.count
        return fields.withUnsafeBufferPointer { buffer -> String? in
            for i in buffer.indices where buffer[i].name.utf8.count == length
                && HTTPHeaders.namesEqual(buffer[i].name, name) {
                return buffer[i].value
            }
            return nil
        }
    }

    /// Every value of `name`, in order.
    public func values(_ name: String) -> [String] {
        var result: [String] = []
        for field in fields where HTTPHeaders.namesEqual(field.name, name) { result.append(field.value) }
        return result
    }

    /// Appends a field, keeping any existing ones of that name.
    public mutating func add(_ name: String, _ value: String) {
        fields.append(Field(name: name, value: value))
    }

    /// Replaces every field of `name` with one field holding `value` (at the position of the first one,
    /// or at the end when there was none).
    public mutating func set(_ name: String, _ value: String) {
        // The usual cases, a name not present or present once, are found in one borrowed pass: no closure
        // per field, no copy of each field's strings.
        let length = name.utf8.count
        let found = fields.withUnsafeBufferPointer { buffer -> (first: Int?, repeated: Bool) in
            var first: Int?
            for i in buffer.indices where buffer[i].name.utf8.count == length
                && HTTPHeaders.namesEqual(buffer[i].name, name) {
                if first != nil { return (first, true) }
                first = i
            }
            return (first, false)
        }
        guard let first = found.first else {
            fields.append(Field(name: name, value: value))
            return
        }
        fields[first] = Field(name: name, value: value)
        guard found.repeated else { return }
        var index = fields.index(after: first)
        while index < fields.endIndex {
            if HTTPHeaders.namesEqual(fields[index].name, name) {
                fields.remove(at: index)
            } else {
                index = fields.index(after: index)
            }
        }
    }

    /// Removes every field of `name`.
    public mutating func remove(_ name: String) {
        fields.removeAll { HTTPHeaders.namesEqual($0.name, name) }
    }

    /// True when at least one field of `name` is present.
    public func contains(_ name: String) -> Bool {
        let length = name.utf8.count
        return fields.withUnsafeBufferPointer { buffer in
            for i in buffer.indices where buffer[i].name.utf8.count == length
                && HTTPHeaders.namesEqual(buffer[i].name, name) {
                return true
            }
            return false
        }
    }

    /// Iterates the fields in order.
    public func makeIterator() -> Iterator { Iterator(base: fields.makeIterator()) }

    /// The fields as `(name, value)` pairs, in order.
    public struct Iterator: IteratorProtocol {
        var base: IndexingIterator<[Field]>

        public mutating func next() -> Element? {
            guard let field = base.next() else { return nil }
            return (name: field.name, value: field.value)
        }
    }

    /// Equal when both hold the same fields in the same order (names compared case-insensitively).
    public static func == (lhs: HTTPHeaders, rhs: HTTPHeaders) -> Bool {
        guard lhs.fields.count == rhs.fields.count else { return false }
        for (a, b) in zip(lhs.fields, rhs.fields) {
            guard namesEqual(a.name, b.name), a.value == b.value else { return false }
        }
        return true
    }

    /// "Name: value" lines, for debugging.
    public var description: String {
        fields.map { "\($0.name): \($0.value)" }.joined(separator: "\n")
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
