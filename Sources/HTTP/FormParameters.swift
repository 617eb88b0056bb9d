import Core

/// Why a query string or form body could not be read.
public enum FormError: Error, Sendable, Equatable {
    /// A `%` not followed by two hexadecimal digits, at this byte offset of the input.
    case invalidPercentEncoding(offset: Int)
    /// A name or value is not valid UTF-8 once decoded.
    case invalidUTF8
    /// More than `FormParameters.maxParameters` pairs.
    case tooManyParameters
}

/// Ordered name/value list parsed from a query string or x-www-form-urlencoded body.
///
/// Repeated names are kept in order. `list(_:)` reads the array conventions clients use (`tag=a&tag=b`,
/// `tag[]=a&tag[]=b`, `tag[0]=a&tag[1]=b`) as one list, in the order the pairs appear.
public struct FormParameters: Sendable, Sequence {
    /// One pair.
    public typealias Element = (name: String, value: String)

    /// Most pairs accepted from one input: a bound on the work and memory a single request can demand.
    public static let maxParameters = 10_000

    /// The pairs, in order.
    public var pairs: [(name: String, value: String)]

    /// No pairs.
    public init() { pairs = [] }

    /// Pairs from name/value tuples, in order.
    public init(_ pairs: [(String, String)]) {
        self.pairs = pairs.map { (name: $0.0, value: $0.1) }
    }

    /// Parses `name=value&...`. Empty segments are skipped; a segment without '=' is a name with an empty
    /// value. `plusIsSpace` applies the form rule ('+' means space) before percent-decoding.
    public static func parse(_ text: Substring, plusIsSpace: Bool = true) throws(FormError) -> FormParameters {
        var text = text
        let result = text.withUTF8 { buf in
            Result { () throws(FormError) in try parse(UnsafeRawBufferPointer(buf), plusIsSpace: plusIsSpace) }
        }
        return try result.get()
    }

    /// Parses an x-www-form-urlencoded body (see `parse(_:plusIsSpace:)` for the text form).
    public static func parse(_ bytes: [UInt8], plusIsSpace: Bool = true) throws(FormError) -> FormParameters {
        let result = bytes.withUnsafeBytes { buf in
            Result { () throws(FormError) in try parse(buf, plusIsSpace: plusIsSpace) }
        }
        return try result.get()
    }

    static func parse(_ buf: UnsafeRawBufferPointer, plusIsSpace: Bool) throws(FormError) -> FormParameters {
        var form = FormParameters()
        var start = 0
        let end = buf.count
        while start < end {
            let ampersand = buf.firstIndex(of: 0x26, from: start, to: end) ?? end
            if ampersand > start {
                guard form.pairs.count < maxParameters else { throw .tooManyParameters }
                let equals = buf.firstIndex(of: 0x3D, from: start, to: ampersand)
                let name = try decode(buf, start, equals ?? ampersand, plusIsSpace: plusIsSpace)
                let value = try equals.map { (eq: Int) throws(FormError) -> String in
                    try decode(buf, eq + 1, ampersand, plusIsSpace: plusIsSpace)
                } ?? ""
                form.pairs.append((name: name, value: value))
            }
            start = ampersand + 1
        }
        return form
    }

    /// Throws exactly when `parse(_:plusIsSpace:)` would, without building the pairs: for a query string the
    /// handler reads in its own way (see `Router.group(...parsesQuery:)`), at a fraction of the cost. Only a
    /// name or value that decodes to non-ASCII bytes is decoded, to check its UTF-8.
    public static func validate(_ text: Substring, plusIsSpace: Bool = true) throws(FormError) {
        var text = text
        let result = text.withUTF8 { buf in
            Result { () throws(FormError) in try validate(UnsafeRawBufferPointer(buf), plusIsSpace: plusIsSpace) }
        }
        try result.get()
    }

    static func validate(_ buf: UnsafeRawBufferPointer, plusIsSpace: Bool) throws(FormError) {
        var count = 0
        var start = 0
        let end = buf.count
        while start < end {
            let ampersand = buf.firstIndex(of: 0x26, from: start, to: end) ?? end
            if ampersand > start {
                guard count < maxParameters else { throw .tooManyParameters }
                count += 1
                let equals = buf.firstIndex(of: 0x3D, from: start, to: ampersand)
                try check(buf, start, equals ?? ampersand, plusIsSpace: plusIsSpace)
                if let equals { try check(buf, equals + 1, ampersand, plusIsSpace: plusIsSpace) }
            }
            start = ampersand + 1
        }
    }

    /// `decode` without the String: the same first bad escape, and the same UTF-8 verdict.
    private static func check(_ buf: UnsafeRawBufferPointer, _ start: Int, _ end: Int,
                              plusIsSpace: Bool) throws(FormError) {
        var ascii = true
        var i = start
        while i < end {
            let b = buf[i]
            if b == 0x25 {
                guard i + 2 < end, let high = Hex.value(buf[i + 1]), Hex.value(buf[i + 2]) != nil else {
                    throw .invalidPercentEncoding(offset: i)
                }
                if high >= 8 { ascii = false }
                i += 3
            } else {
                if b >= 0x80 { ascii = false }
                i += 1
            }
        }
        if !ascii { _ = try decode(buf, start, end, plusIsSpace: plusIsSpace) }
    }

    private static func decode(_ buf: UnsafeRawBufferPointer, _ start: Int, _ end: Int,
                               plusIsSpace: Bool) throws(FormError) -> String {
        switch PercentCoding.decode(buf, start, end, plusIsSpace: plusIsSpace) {
        case .success(let text): return text
        case .badEscape(let offset): throw .invalidPercentEncoding(offset: offset)
        case .badUTF8: throw .invalidUTF8
        }
    }

    /// The first value of `name` (exact, case-sensitive match), or nil.
    public func first(_ name: String) -> String? {
        pairs.first { $0.name == name }?.value
    }

    /// All values of `name` as one ordered list, merging `name`, `name[]` and `name[0]`, `name[1]`...
    public func list(_ name: String) -> [String] {
        pairs.compactMap { FormParameters.isListKey($0.name, of: name) ? $0.value : nil }
    }

    /// True for `name`, `name[]` and `name[<digits>]`.
    static func isListKey(_ key: String, of name: String) -> Bool {
        guard key.utf8.starts(with: name.utf8) else { return false }
        let rest = key.utf8.dropFirst(name.utf8.count)
        if rest.isEmpty { return true }
        guard rest.count >= 2, rest.first == 0x5B, rest.last == 0x5D else { return false }
        return rest.dropFirst().dropLast().allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
    }

    /// Appends the pairs of `other` after these.
    public mutating func merge(_ other: FormParameters) {
        pairs.append(contentsOf: other.pairs)
    }

    /// True when there are no pairs.
    public var isEmpty: Bool { pairs.isEmpty }

    /// Iterates the pairs in order.
    public func makeIterator() -> IndexingIterator<[(name: String, value: String)]> { pairs.makeIterator() }
}
