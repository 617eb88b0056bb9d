/// Strict RFC 8259 parser.
///
/// Refused: trailing commas, comments, single quotes, NaN/Infinity, leading zeros, `+` signs, control
/// characters inside strings, malformed UTF-8, unpaired surrogates in `\u` escapes, a leading byte order
/// mark (unless `allowsByteOrderMark`), and anything after the value but whitespace. Numbers are checked
/// against the grammar and kept as text. Nesting is handled with an explicit stack, not recursion, so no
/// input can exhaust the thread's stack whatever `maxDepth` is set to.
public enum JSONParser {
    /// Parses a complete JSON text.
    public static func parse(_ bytes: [UInt8], options: JSONParseOptions = .init()) throws(JSONError) -> JSON {
        let result: Result<JSON, JSONError> = bytes.withUnsafeBufferPointer { buffer in
            Result { () throws(JSONError) -> JSON in try parse(buffer: buffer, options: options) }
        }
        return try result.get()
    }

    /// Parses a complete JSON text given as a string (its UTF-8 bytes are parsed, without copying).
    public static func parse(_ text: String, options: JSONParseOptions = .init()) throws(JSONError) -> JSON {
        var text = text
        let result: Result<JSON, JSONError> = text.withUTF8 { buffer in
            Result { () throws(JSONError) -> JSON in try parse(buffer: buffer, options: options) }
        }
        return try result.get()
    }

    /// Parses a complete JSON text held in memory the caller owns (for example a request buffer).
    public static func parse(buffer: UnsafeBufferPointer<UInt8>,
                             options: JSONParseOptions = .init()) throws(JSONError) -> JSON {
        guard buffer.count <= options.maxBytes else { throw .tooLarge(limit: options.maxBytes) }
        var scanner = JSONScanner(buffer: buffer, options: options)
        return try scanner.parseDocument()
    }
}

/// One open container. Its members live on the scanner's shared stacks from `start` on, so each finished
/// container is built with one exactly-sized allocation instead of growing an array member by member.
private struct Frame {
    var isObject: Bool
    /// Index of its first element in `elements` or first member in `members`.
    var start: Int
    /// Key of the member whose value is being parsed (objects only).
    var key = ""
    /// Key -> member index, built once an object grows past `JSONObject.indexThreshold` members, so
    /// duplicate detection stays linear overall.
    var keyIndex: [ObjectKey: Int]? = nil
}

/// The parser's cursor over the input. Every byte access is preceded by a bounds check on `pos`.
struct JSONScanner {
    let buf: UnsafeBufferPointer<UInt8>
    let count: Int
    var pos = 0
    let options: JSONParseOptions
    /// Reused for strings that contain escapes.
    var scratch: [UInt8] = []
    /// Elements of all open arrays, innermost last.
    private var elements: [JSON] = []
    /// Members of all open objects, innermost last.
    private var members: [(key: String, value: JSON)] = []

    init(buffer: UnsafeBufferPointer<UInt8>, options: JSONParseOptions) {
        self.buf = buffer
        self.count = buffer.count
        self.options = options
    }

    mutating func parseDocument() throws(JSONError) -> JSON {
        if count >= 3, buf[0] == 0xEF, buf[1] == 0xBB, buf[2] == 0xBF {
            guard options.allowsByteOrderMark else { throw .syntax(offset: 0, message: "byte order mark is not allowed") }
            pos = 3
        }
        skipWhitespace()
        guard pos < count else { throw .emptyInput }
        var stack: [Frame] = []
        var value: JSON
        // Values still allowed; counted down before each one is read so that an over-limit text is refused
        // before its values are built, not after.
        var valuesLeft = options.maxValues
        expectValue: while true {
            guard pos < count else { throw .syntax(offset: pos, message: "unexpected end of input, expected a value") }
            guard valuesLeft > 0 else { throw .tooManyValues(limit: options.maxValues) }
            valuesLeft &-= 1
            switch buf[pos] {
            case UInt8(ascii: "{"):
                guard stack.count < options.maxDepth else { throw .tooDeep(limit: options.maxDepth) }
                pos += 1
                skipWhitespace()
                if pos < count, buf[pos] == UInt8(ascii: "}") {
                    pos += 1
                    value = .object(JSONObject())
                } else {
                    let key = try parseKey()
                    stack.append(Frame(isObject: true, start: members.count, key: key))
                    continue expectValue
                }
            case UInt8(ascii: "["):
                guard stack.count < options.maxDepth else { throw .tooDeep(limit: options.maxDepth) }
                pos += 1
                skipWhitespace()
                if pos < count, buf[pos] == UInt8(ascii: "]") {
                    pos += 1
                    value = .array([])
                } else {
                    stack.append(Frame(isObject: false, start: elements.count))
                    continue expectValue
                }
            case UInt8(ascii: "\""):
                value = .string(try parseString())
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                value = .number(try parseNumber())
            case UInt8(ascii: "t"):
                try expectLiteral("true")
                value = .bool(true)
            case UInt8(ascii: "f"):
                try expectLiteral("false")
                value = .bool(false)
            case UInt8(ascii: "n"):
                try expectLiteral("null")
                value = .null
            case UInt8(ascii: "]"), UInt8(ascii: "}"):
                throw .syntax(offset: pos, message: "expected a value (trailing comma?)")
            default:
                throw .syntax(offset: pos, message: "unexpected character, expected a value")
            }

            // Attach the finished value to its container; closing brackets finish containers in turn.
            while true {
                skipWhitespace()
                guard let top = stack.indices.last else {
                    guard pos == count else { throw .syntax(offset: pos, message: "unexpected data after the JSON value") }
                    return value
                }
                guard pos < count else { throw .syntax(offset: pos, message: "unexpected end of input") }
                let c = buf[pos]
                if stack[top].isObject {
                    try insertMember(value, into: &stack[top])
                    if c == UInt8(ascii: ",") {
                        pos += 1
                        skipWhitespace()
                        stack[top].key = try parseKey()
                        continue expectValue
                    }
                    guard c == UInt8(ascii: "}") else { throw .syntax(offset: pos, message: "expected ',' or '}' in object") }
                    pos += 1
                    let frame = stack.removeLast()
                    let pairs = Array(members[frame.start...])
                    members.removeSubrange(frame.start...)
                    value = .object(JSONObject(uniquePairs: pairs, index: frame.keyIndex))
                } else {
                    elements.append(value)
                    if c == UInt8(ascii: ",") {
                        pos += 1
                        skipWhitespace()
                        continue expectValue
                    }
                    guard c == UInt8(ascii: "]") else { throw .syntax(offset: pos, message: "expected ',' or ']' in array") }
                    pos += 1
                    let frame = stack.removeLast()
                    let array = Array(elements[frame.start...])
                    elements.removeSubrange(frame.start...)
                    value = .array(array)
                }
            }
        }
    }

    /// Adds the member under the frame's pending key, applying the duplicate-key policy.
    private mutating func insertMember(_ value: JSON, into frame: inout Frame) throws(JSONError) {
        guard let existing = memberPosition(of: frame.key, in: frame) else {
            members.append((key: frame.key, value: value))
            let memberCount = members.count - frame.start
            if frame.keyIndex != nil {
                frame.keyIndex?[ObjectKey(frame.key)] = memberCount - 1
            } else if memberCount >= JSONObject.indexThreshold {
                var table = [ObjectKey: Int](minimumCapacity: memberCount * 2)
                for i in frame.start..<members.count { table[ObjectKey(members[i].key)] = i - frame.start }
                frame.keyIndex = table
            }
            return
        }
        switch options.duplicateKeys {
        case .reject: throw .duplicateKey(frame.key)
        case .lastWins: members[frame.start + existing].value = value
        case .firstWins: break
        }
    }

    /// Position (relative to the object's first member) of an already-parsed member named `key`.
    private func memberPosition(of key: String, in frame: Frame) -> Int? {
        if let index = frame.keyIndex { return index[ObjectKey(key)] }
        var i = frame.start
        while i < members.count {
            if JSONObject.sameKey(members[i].key, key) { return i - frame.start }
            i += 1
        }
        return nil
    }

    /// Reads `"key"` then `:` and the whitespace around them.
    private mutating func parseKey() throws(JSONError) -> String {
        guard pos < count, buf[pos] == UInt8(ascii: "\"") else {
            throw .syntax(offset: pos, message: "expected a string key (trailing comma?)")
        }
        let key = try parseString()
        skipWhitespace()
        guard pos < count, buf[pos] == UInt8(ascii: ":") else { throw .syntax(offset: pos, message: "expected ':' after key") }
        pos += 1
        skipWhitespace()
        return key
    }

    /// Skips the four JSON whitespace bytes (space, tab, LF, CR) and nothing else.
    @inline(__always)
    mutating func skipWhitespace() {
        while pos < count {
            switch buf[pos] {
            case 0x20, 0x09, 0x0A, 0x0D: pos += 1
            default: return
            }
        }
    }

    private mutating func expectLiteral(_ word: StaticString) throws(JSONError) {
        let length = word.utf8CodeUnitCount
        let matches = word.withUTF8Buffer { literal in
            pos + length <= count && (0..<length).allSatisfy { buf[pos + $0] == literal[$0] }
        }
        guard matches else { throw .syntax(offset: pos, message: "invalid literal") }
        pos += length
    }
}
