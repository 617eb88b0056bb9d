extension JSON {
    /// Compact JSON text (no whitespace). See `serializedBytes(sortedKeys:)` for the exact rules.
    public func serialized(sortedKeys: Bool = false) -> String {
        String(decoding: serializedBytes(sortedKeys: sortedKeys), as: UTF8.self)
    }

    /// Compact JSON text as UTF-8 bytes.
    ///
    /// Strings escape only what RFC 8259 requires: `"` and `\`, and control characters U+0000-U+001F
    /// (as `\b \f \n \r \t`, or `\u00XX` with lowercase hex, like `JSON.stringify`). `/` and every
    /// non-ASCII character are written raw as UTF-8. Numbers are written as their stored text.
    /// With `sortedKeys`, members of every object are ordered by Unicode scalar value of their keys
    /// (byte order of the UTF-8 form, which is the same order) so equal objects give equal bytes;
    /// otherwise insertion order is kept.
    public func serializedBytes(sortedKeys: Bool = false) -> [UInt8] {
        var writer = JSONWriter(sortedKeys: sortedKeys)
        writer.write(self)
        return writer.out
    }
}

extension JSON {
    /// Appends the UTF-8 text in `bytes` as a quoted JSON string, escaped exactly as `serializedBytes`
    /// escapes strings.
    public static func appendQuoted(utf8 bytes: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        // Ids and timestamps, the usual callers, need no escape: copied in one piece.
        if !needsEscape(bytes) {
            out.append(UInt8(ascii: "\""))
            out.append(contentsOf: bytes)
            out.append(UInt8(ascii: "\""))
            return
        }
        var writer = JSONWriter(continuing: out)
        out = []
        writer.writeString(String(decoding: bytes, as: UTF8.self))
        out = writer.out
    }
}

extension JSON {
    /// Whether some byte of `bytes` must be escaped in a JSON string (a control byte, `"` or `\`).
    /// Eight bytes at a time: ids and timestamps of every object written pass through here.
    public static func needsEscape(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return false }
        var i = 0
        while bytes.count - i >= 8 {
            let word = WordBytes.load(base, at: i)
            let quoteOrBackslash = WordBytes.equal(word, UInt8(ascii: "\"")) | WordBytes.equal(word, UInt8(ascii: "\\"))
            if WordBytes.below(word, 0x20) | quoteOrBackslash != 0 { return true }
            i += 8
        }
        while i < bytes.count {
            let byte = base[i]
            if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { return true }
            i += 1
        }
        return false
    }
}

extension JSONObject {
    /// Compact JSON text of the object (see `JSON.serializedBytes(sortedKeys:)`).
    public func serialized(sortedKeys: Bool = false) -> String { JSON.object(self).serialized(sortedKeys: sortedKeys) }
}

/// Appends JSON text to a byte buffer.
struct JSONWriter {
    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)
    var out: [UInt8] = []
    let sortedKeys: Bool

    init(sortedKeys: Bool) {
        self.sortedKeys = sortedKeys
        out.reserveCapacity(256)
    }

    /// A writer that appends to `out` (taken over, not copied, when the caller gives up its own).
    init(continuing out: [UInt8]) {
        sortedKeys = false
        self.out = out
    }

    // Recursion depth equals the value's nesting. Values built by the parser are bounded by its
    // `maxDepth`; values built in code are as deep as the code made them.
    mutating func write(_ value: JSON) {
        switch value {
        case .null: out += [0x6E, 0x75, 0x6C, 0x6C]                    // null
        case .bool(true): out += [0x74, 0x72, 0x75, 0x65]              // true
        case .bool(false): out += [0x66, 0x61, 0x6C, 0x73, 0x65]       // false
        case .number(let n): appendRaw(n.text)
        case .string(let s): writeString(s)
        case .array(let elements):
            out.append(UInt8(ascii: "["))
            for (i, element) in elements.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                write(element)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let object):
            out.append(UInt8(ascii: "{"))
            var first = true
            let members = sortedKeys
                ? object.pairs.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
                : object.pairs
            for member in members {
                if !first { out.append(UInt8(ascii: ",")) }
                first = false
                writeString(member.key)
                out.append(UInt8(ascii: ":"))
                write(member.value)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    private mutating func appendRaw(_ s: String) {
        var s = s
        s.withUTF8 { out.append(contentsOf: $0) }
    }

    /// Writes a quoted string, copying runs of bytes that need no escape in one append.
    mutating func writeString(_ s: String) {
        out.append(UInt8(ascii: "\""))
        var s = s
        s.withUTF8 { bytes in
            var runStart = 0
            for i in bytes.indices {
                let c = bytes[i]
                guard c < 0x20 || c == UInt8(ascii: "\"") || c == UInt8(ascii: "\\") else { continue }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<i]))
                runStart = i + 1
                out.append(UInt8(ascii: "\\"))
                switch c {
                case UInt8(ascii: "\""): out.append(UInt8(ascii: "\""))
                case UInt8(ascii: "\\"): out.append(UInt8(ascii: "\\"))
                case 0x08: out.append(UInt8(ascii: "b"))
                case 0x0C: out.append(UInt8(ascii: "f"))
                case 0x0A: out.append(UInt8(ascii: "n"))
                case 0x0D: out.append(UInt8(ascii: "r"))
                case 0x09: out.append(UInt8(ascii: "t"))
                default:
                    // c < 0x20 here, so both nibbles index the 16-entry table.
                    out += [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                            Self.hexDigits[Int(c >> 4)], Self.hexDigits[Int(c & 0x0F)]]
                }
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<bytes.count]))
        }
        out.append(UInt8(ascii: "\""))
    }
}
