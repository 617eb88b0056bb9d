extension JSON {
    /// Compact JSON text (no whitespace). See `serializedBytes(sortedKeys:)` for the exact rules.
    public func serialized(sortedKeys: Bool = false) -> String {
        String(decoding: serializedBytes(sortedKeys: sortedKeys), as: UTF8.self)
    }

    /// Compact JSON text as UTF-8 bytes, written by `JSONWriter` (see there for the exact rules):
    /// strings escape only `"`, `\` and control characters (`\b \f \n \r \t` by name, like
    /// `JSON.stringify`), numbers keep their text, and `sortedKeys` orders every object's members bytewise.
    public func serializedBytes(sortedKeys: Bool = false) -> [UInt8] {
        var writer = JSONWriter(sortKeys: sortedKeys)
        writer.value(self)
        return writer.bytes
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
        writer.string(String(decoding: bytes, as: UTF8.self))
        out = writer.bytes
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
