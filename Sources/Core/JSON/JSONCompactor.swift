/// Checks JSON text under the same rules and limits as `JSONParser` and writes its compact form, without
/// building a tree: for readers that only need to pick a few members out of a large body and keep the
/// rest as text.
///
/// The bytes written are exactly what parsing the text and serializing the result (`JSON.serializedBytes`)
/// would give: whitespace dropped, keys in received order, numbers as their literal, and strings as the
/// serializer writes them (a string without escapes is copied as it is, since its raw bytes can hold no
/// quote, backslash or control character; one with escapes is decoded and written again). Text this
/// refuses is text `JSONParser` refuses with the same options: the grammar, UTF-8, nesting, duplicate keys
/// (compared on their decoded bytes, as `JSONObject` compares them), the value count and string size
/// limits and `rejectsDecimalOverflow`. The error may differ from the parser's for text with several
/// faults (this reads members in one pass and checks a key when it is read, the parser after its value),
/// so callers that owe their clients the parser's exact error parse again when this one throws.
///
/// The caller reads the outer structure itself with `consume`, `string` and `countValue`, and hands each
/// value it does not interpret to `value(into:depth:recordingMembers:)`.
public struct JSONCompactor {
    private var scanner: JSONScanner
    /// Values still allowed, counted as `JSONParser` counts them (containers and the text's outer value
    /// included).
    private var valuesLeft: Int
    /// Open containers of the value being read.
    private var frames: [Frame] = []
    /// Ranges (in the output) of the keys of every open object, innermost object's last.
    private var keyRanges: [Range<Int>] = []
    /// The members of the outermost object read by the last `value(into:depth:recordingMembers:)` call that
    /// asked for them: for each, the range of its quoted key and of its value in that call's output.
    public private(set) var members: [(key: Range<Int>, value: Range<Int>)] = []

    private struct Frame {
        var isObject: Bool
        /// Index of the object's first key in `keyRanges`.
        var keyStart: Int
        /// Hashes of the object's keys once it has `hashThreshold` members (linear search before).
        var keyHashes: Set<Int>?
        /// The current member's key and where its value starts in the output (objects only).
        var key: Range<Int> = 0..<0
        var valueStart = 0
    }

    /// Objects are searched linearly for a repeated key up to this many members, as `JSONObject` does.
    private static let hashThreshold = 12

    /// A compactor over `buffer`, which the caller keeps alive and unchanged while using it.
    public init(buffer: UnsafeBufferPointer<UInt8>, options: JSONParseOptions) {
        scanner = JSONScanner(buffer: buffer, options: options)
        valuesLeft = options.maxValues
    }

    /// Offset of the next byte to read.
    public var position: Int { scanner.pos }

    /// Moves past JSON whitespace.
    public mutating func skipWhitespace() { scanner.skipWhitespace() }

    /// The next byte after whitespace (not consumed), nil at the end.
    public mutating func peek() -> UInt8? {
        scanner.skipWhitespace()
        return scanner.pos < scanner.count ? scanner.buf[scanner.pos] : nil
    }

    /// Moves past whitespace and then `byte` when it comes next; false (nothing consumed but the
    /// whitespace) otherwise.
    public mutating func consume(_ byte: UInt8) -> Bool {
        guard peek() == byte else { return false }
        scanner.pos += 1
        return true
    }

    /// True when only whitespace is left.
    public mutating func atEnd() -> Bool { peek() == nil }

    /// Counts one value the caller reads itself against `maxValues`.
    public mutating func countValue() throws(JSONError) {
        guard valuesLeft > 0 else { throw .tooManyValues(limit: scanner.options.maxValues) }
        valuesLeft &-= 1
    }

    /// Reads the string at the next position (a key or a value; not counted) and appends it quoted as the
    /// serializer writes it.
    public mutating func string(into out: inout [UInt8]) throws(JSONError) {
        scanner.skipWhitespace()
        guard scanner.pos < scanner.count, scanner.buf[scanner.pos] == UInt8(ascii: "\"") else {
            throw .syntax(offset: scanner.pos, message: "expected a string")
        }
        try stringToken(into: &out)
    }

    /// Reads one value (counted, with everything in it) and appends its compact form. `depth` is the number
    /// of containers the caller has opened around it (the parser's `maxDepth` counts those too). With
    /// `recordingMembers`, an object's members are listed in `members`.
    public mutating func value(into out: inout [UInt8], depth: Int, recordingMembers: Bool = false) throws(JSONError) {
        frames.removeAll(keepingCapacity: true)
        keyRanges.removeAll(keepingCapacity: true)
        members.removeAll(keepingCapacity: true)
        scanner.skipWhitespace()
        expectValue: while true {
            guard scanner.pos < scanner.count else {
                throw .syntax(offset: scanner.pos, message: "unexpected end of input, expected a value")
            }
            try countValue()
            switch scanner.buf[scanner.pos] {
            case UInt8(ascii: "{"):
                guard depth &+ frames.count < scanner.options.maxDepth else { throw .tooDeep(limit: scanner.options.maxDepth) }
                scanner.pos += 1
                scanner.skipWhitespace()
                if scanner.pos < scanner.count, scanner.buf[scanner.pos] == UInt8(ascii: "}") {
                    scanner.pos += 1
                    out.append(contentsOf: [UInt8(ascii: "{"), UInt8(ascii: "}")])
                } else {
                    out.append(UInt8(ascii: "{"))
                    frames.append(Frame(isObject: true, keyStart: keyRanges.count))
                    try key(into: &out)
                    continue expectValue
                }
            case UInt8(ascii: "["):
                guard depth &+ frames.count < scanner.options.maxDepth else { throw .tooDeep(limit: scanner.options.maxDepth) }
                scanner.pos += 1
                scanner.skipWhitespace()
                if scanner.pos < scanner.count, scanner.buf[scanner.pos] == UInt8(ascii: "]") {
                    scanner.pos += 1
                    out.append(contentsOf: [UInt8(ascii: "["), UInt8(ascii: "]")])
                } else {
                    out.append(UInt8(ascii: "["))
                    frames.append(Frame(isObject: false, keyStart: keyRanges.count))
                    continue expectValue
                }
            case UInt8(ascii: "\""):
                try stringToken(into: &out)
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                try number(into: &out)
            case UInt8(ascii: "t"): try literal("true", into: &out)
            case UInt8(ascii: "f"): try literal("false", into: &out)
            case UInt8(ascii: "n"): try literal("null", into: &out)
            default:
                throw .syntax(offset: scanner.pos, message: "unexpected character, expected a value")
            }

            // The value is complete: it ends a member or element of the innermost container, which may close.
            while true {
                scanner.skipWhitespace()
                guard let top = frames.indices.last else { return }
                guard scanner.pos < scanner.count else { throw .syntax(offset: scanner.pos, message: "unexpected end of input") }
                let c = scanner.buf[scanner.pos]
                if frames[top].isObject {
                    if recordingMembers, top == 0 { members.append((frames[top].key, frames[top].valueStart..<out.count)) }
                    if c == UInt8(ascii: ",") {
                        scanner.pos += 1
                        out.append(c)
                        scanner.skipWhitespace()
                        try key(into: &out)
                        continue expectValue
                    }
                    guard c == UInt8(ascii: "}") else { throw .syntax(offset: scanner.pos, message: "expected ',' or '}' in object") }
                } else {
                    if c == UInt8(ascii: ",") {
                        scanner.pos += 1
                        out.append(c)
                        scanner.skipWhitespace()
                        continue expectValue
                    }
                    guard c == UInt8(ascii: "]") else { throw .syntax(offset: scanner.pos, message: "expected ',' or ']' in array") }
                }
                scanner.pos += 1
                out.append(c)
                let frame = frames.removeLast()
                keyRanges.removeSubrange(frame.keyStart...)
            }
        }
    }

    /// Reads `"key":` of the innermost object, refusing a key it already has.
    private mutating func key(into out: inout [UInt8]) throws(JSONError) {
        guard scanner.pos < scanner.count, scanner.buf[scanner.pos] == UInt8(ascii: "\""),
              let top = frames.indices.last else {
            throw .syntax(offset: scanner.pos, message: "expected a string key (trailing comma?)")
        }
        let start = out.count
        try stringToken(into: &out)
        let range = start..<out.count
        try checkNewKey(range, frame: top, out: &out)
        keyRanges.append(range)
        scanner.skipWhitespace()
        guard scanner.pos < scanner.count, scanner.buf[scanner.pos] == UInt8(ascii: ":") else {
            throw .syntax(offset: scanner.pos, message: "expected ':' after key")
        }
        scanner.pos += 1
        out.append(UInt8(ascii: ":"))
        scanner.skipWhitespace()
        frames[top].key = range
        frames[top].valueStart = out.count
    }

    /// Throws `duplicateKey` when object `top` already has `key`. Keys are compared in their serialized
    /// form, which is one-to-one with their decoded bytes.
    private mutating func checkNewKey(_ key: Range<Int>, frame top: Int, out: inout [UInt8]) throws(JSONError) {
        let first = frames[top].keyStart
        let known = keyRanges.count &- first
        if frames[top].keyHashes == nil, known + 1 >= Self.hashThreshold {
            var hashes = Set<Int>(minimumCapacity: known * 2)
            out.withUnsafeBufferPointer { bytes in
                for range in keyRanges[first...] { hashes.insert(Self.hash(bytes, range)) }
            }
            frames[top].keyHashes = hashes
        }
        if frames[top].keyHashes != nil {
            // Only a hash already seen is compared for real (a collision is not a duplicate).
            let hash = out.withUnsafeBufferPointer { Self.hash($0, key) }
            guard frames[top].keyHashes?.insert(hash).inserted == false else { return }
        }
        let repeated = out.withUnsafeBufferPointer { bytes in
            keyRanges.withUnsafeBufferPointer { ranges in
                var i = first
                while i < ranges.count {
                    if Self.same(bytes, ranges[i], key) { return true }
                    i &+= 1
                }
                return false
            }
        }
        guard !repeated else {
            throw .duplicateKey(String(decoding: out[key].dropFirst().dropLast(), as: UTF8.self))
        }
    }

    private static func hash(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int {
        var hasher = Hasher()
        hasher.combine(bytes: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[range])))
        return hasher.finalize()
    }

    /// Byte equality of two ranges of `bytes` (keys are short: a plain loop beats a generic comparison).
    @inline(__always)
    private static func same(_ bytes: UnsafeBufferPointer<UInt8>, _ a: Range<Int>, _ b: Range<Int>) -> Bool {
        guard a.count == b.count else { return false }
        var i = 0
        while i < a.count {
            guard bytes[a.lowerBound &+ i] == bytes[b.lowerBound &+ i] else { return false }
            i &+= 1
        }
        return true
    }

    /// A string at its opening quote, appended as the serializer writes it.
    private mutating func stringToken(into out: inout [UInt8]) throws(JSONError) {
        let open = scanner.pos
        scanner.pos += 1
        let start = scanner.pos
        let maxBytes = scanner.options.maxStringBytes
        while scanner.pos < scanner.count {
            scanner.skipPlainASCII()
            guard scanner.pos < scanner.count else { break }
            let c = scanner.buf[scanner.pos]
            if c == UInt8(ascii: "\"") {
                guard scanner.pos &- start <= maxBytes else { throw .stringTooLong(limit: maxBytes) }
                scanner.pos += 1
                out.append(contentsOf: UnsafeBufferPointer(rebasing: scanner.buf[open..<scanner.pos]))
                return
            }
            if c == UInt8(ascii: "\\") { break }
            if c < 0x20 { throw .syntax(offset: scanner.pos, message: "control character in string must be escaped") }
            if c < 0x80 { scanner.pos += 1 } else { try scanner.skipUTF8Sequence() }
        }
        guard scanner.pos < scanner.count else { throw .syntax(offset: open, message: "unterminated string") }
        // Escapes: decoded as the parser decodes them, then written as the serializer writes the result.
        scanner.scratch.removeAll(keepingCapacity: true)
        scanner.scratch.append(contentsOf: UnsafeBufferPointer(rebasing: scanner.buf[start..<scanner.pos]))
        while scanner.pos < scanner.count {
            let c = scanner.buf[scanner.pos]
            if c == UInt8(ascii: "\"") {
                guard scanner.pos &- start <= maxBytes else { throw .stringTooLong(limit: maxBytes) }
                scanner.pos += 1
                scanner.scratch.withUnsafeBufferPointer { JSON.appendQuoted(utf8: $0, to: &out) }
                return
            }
            if c == UInt8(ascii: "\\") {
                try scanner.parseEscape()
            } else if c < 0x20 {
                throw .syntax(offset: scanner.pos, message: "control character in string must be escaped")
            } else if c < 0x80 {
                scanner.scratch.append(c)
                scanner.pos += 1
            } else {
                let sequenceStart = scanner.pos
                try scanner.skipUTF8Sequence()
                scanner.scratch.append(contentsOf: UnsafeBufferPointer(rebasing: scanner.buf[sequenceStart..<scanner.pos]))
            }
        }
        throw .syntax(offset: open, message: "unterminated string")
    }

    /// A number, appended as its literal.
    private mutating func number(into out: inout [UInt8]) throws(JSONError) {
        let start = scanner.pos
        let end = try JSONScanner.scanNumber(scanner.buf, from: start)
        let text = UnsafeBufferPointer(rebasing: scanner.buf[start..<end])
        // The parser's decimal overflow rule; only literals with a fraction or an exponent can overflow.
        if scanner.options.rejectsDecimalOverflow,
           text.contains(where: { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }),
           JSONNumber(validatedText: String(decoding: text, as: UTF8.self)).doubleValue.isInfinite {
            throw .syntax(offset: start, message: "number out of range")
        }
        scanner.pos = end
        out.append(contentsOf: text)
    }

    private mutating func literal(_ word: StaticString, into out: inout [UInt8]) throws(JSONError) {
        let length = word.utf8CodeUnitCount
        let matches = word.withUTF8Buffer { literal in
            scanner.pos + length <= scanner.count && (0..<length).allSatisfy { scanner.buf[scanner.pos + $0] == literal[$0] }
        }
        guard matches else { throw .syntax(offset: scanner.pos, message: "invalid literal") }
        word.withUTF8Buffer { out.append(contentsOf: $0) }
        scanner.pos += length
    }
}
