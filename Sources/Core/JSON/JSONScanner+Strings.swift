extension JSONScanner {
    /// Reads a string starting at its opening quote. Strings without escapes are copied straight from the
    /// input; only strings with escapes go through the scratch buffer.
    mutating func parseString() throws(JSONError) -> String {
        let open = pos
        pos += 1
        let start = pos
        while pos < count {
            skipPlainASCII()
            guard pos < count else { break }
            let c = buf[pos]
            if c == UInt8(ascii: "\"") {
                guard pos &- start <= options.maxStringBytes else { throw .stringTooLong(limit: options.maxStringBytes) }
                let text = String(decoding: UnsafeBufferPointer(rebasing: buf[start..<pos]), as: UTF8.self)
                pos += 1
                return text
            }
            if c == UInt8(ascii: "\\") { break }
            if c < 0x20 { throw .syntax(offset: pos, message: "control character in string must be escaped") }
            if c < 0x80 { pos += 1 } else { try skipUTF8Sequence() }
        }
        guard pos < count else { throw .syntax(offset: open, message: "unterminated string") }

        scratch.removeAll(keepingCapacity: true)
        scratch.append(contentsOf: UnsafeBufferPointer(rebasing: buf[start..<pos]))
        while pos < count {
            let c = buf[pos]
            if c == UInt8(ascii: "\"") {
                guard pos &- start <= options.maxStringBytes else { throw .stringTooLong(limit: options.maxStringBytes) }
                pos += 1
                return String(decoding: scratch, as: UTF8.self)
            }
            if c == UInt8(ascii: "\\") {
                try parseEscape()
            } else if c < 0x20 {
                throw .syntax(offset: pos, message: "control character in string must be escaped")
            } else if c < 0x80 {
                scratch.append(c)
                pos += 1
            } else {
                let sequenceStart = pos
                try skipUTF8Sequence()
                scratch.append(contentsOf: UnsafeBufferPointer(rebasing: buf[sequenceStart..<pos]))
            }
        }
        throw .syntax(offset: open, message: "unterminated string")
    }

    /// Moves past whole 8-byte words that hold only printable ASCII other than `"` and `\\`, the bytes
    /// that need no attention inside a string. Typical strings are mostly such bytes, and testing a word
    /// at a time instead of a byte at a time is what keeps string scanning cheap.
    @inline(__always)
    mutating func skipPlainASCII() {
        guard let base = buf.baseAddress else { return }
        let raw = UnsafeRawPointer(base)
        while pos + 8 <= count {
            let word = raw.loadUnaligned(fromByteOffset: pos, as: UInt64.self)
            // Stops at a word that may hold a quote, a backslash, a control character or non-ASCII (a set
            // high bit). False positives only stop the fast path early, which is harmless.
            let special = WordBytes.equal(word, 0x22) | WordBytes.equal(word, 0x5C) | WordBytes.below(word, 0x20)
                | word & WordBytes.highs
            guard special == 0 else { return }
            pos += 8
        }
    }

    /// Checks one multi-byte UTF-8 sequence at `pos` and moves past it. The ranges are those of the
    /// Unicode standard's table of well-formed sequences: they exclude overlong forms, UTF-16 surrogates
    /// (ED A0..BF) and code points above U+10FFFF.
    mutating func skipUTF8Sequence() throws(JSONError) {
        let lead = buf[pos]
        var low: UInt8 = 0x80
        var high: UInt8 = 0xBF
        let trailing: Int
        switch lead {
        case 0xC2...0xDF: trailing = 1
        case 0xE0: trailing = 2; low = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: trailing = 2
        case 0xED: trailing = 2; high = 0x9F
        case 0xF0: trailing = 3; low = 0x90
        case 0xF1...0xF3: trailing = 3
        case 0xF4: trailing = 3; high = 0x8F
        default: throw .invalidUTF8(offset: pos)
        }
        guard pos + trailing < count else { throw .invalidUTF8(offset: pos) }
        let second = buf[pos + 1]
        guard second >= low, second <= high else { throw .invalidUTF8(offset: pos) }
        var i = 2
        while i <= trailing {
            guard buf[pos + i] & 0xC0 == 0x80 else { throw .invalidUTF8(offset: pos) }
            i += 1
        }
        pos += trailing + 1
    }

    /// Decodes the escape at `pos` (the backslash) into `scratch`.
    mutating func parseEscape() throws(JSONError) {
        let escapeStart = pos
        guard pos + 1 < count else { throw .syntax(offset: pos, message: "unterminated escape") }
        let c = buf[pos + 1]
        pos += 2
        switch c {
        case UInt8(ascii: "\""): scratch.append(0x22)
        case UInt8(ascii: "\\"): scratch.append(0x5C)
        case UInt8(ascii: "/"): scratch.append(0x2F)
        case UInt8(ascii: "b"): scratch.append(0x08)
        case UInt8(ascii: "f"): scratch.append(0x0C)
        case UInt8(ascii: "n"): scratch.append(0x0A)
        case UInt8(ascii: "r"): scratch.append(0x0D)
        case UInt8(ascii: "t"): scratch.append(0x09)
        case UInt8(ascii: "u"):
            let unit = try readHex4()
            var scalar = UInt32(unit)
            if (0xD800...0xDBFF).contains(unit) {
                // A high surrogate must be followed at once by an escaped low surrogate.
                guard pos + 1 < count, buf[pos] == UInt8(ascii: "\\"), buf[pos + 1] == UInt8(ascii: "u") else {
                    throw .syntax(offset: escapeStart, message: "unpaired surrogate in \\u escape")
                }
                pos += 2
                let low = try readHex4()
                guard (0xDC00...0xDFFF).contains(low) else {
                    throw .syntax(offset: escapeStart, message: "unpaired surrogate in \\u escape")
                }
                scalar = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
            } else if (0xDC00...0xDFFF).contains(unit) {
                throw .syntax(offset: escapeStart, message: "unpaired surrogate in \\u escape")
            }
            appendUTF8(scalar)
        default:
            throw .syntax(offset: escapeStart, message: "invalid escape sequence")
        }
    }

    private mutating func readHex4() throws(JSONError) -> UInt16 {
        var value: UInt16 = 0
        for i in 0..<4 {
            guard pos + i < count else { throw .syntax(offset: pos + i, message: "expected four hex digits after \\u") }
            let c = buf[pos + i]
            let digit: UInt8
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = c - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = c - UInt8(ascii: "A") + 10
            default: throw .syntax(offset: pos + i, message: "expected four hex digits after \\u")
            }
            value = value << 4 | UInt16(digit)
        }
        pos += 4
        return value
    }

    /// Appends a scalar (never a surrogate; at most U+10FFFF by construction) as UTF-8.
    private mutating func appendUTF8(_ v: UInt32) {
        switch v {
        case 0..<0x80:
            scratch.append(UInt8(truncatingIfNeeded: v))
        case 0x80..<0x800:
            scratch.append(UInt8(truncatingIfNeeded: 0xC0 | v >> 6))
            scratch.append(UInt8(truncatingIfNeeded: 0x80 | v & 0x3F))
        case 0x800..<0x10000:
            scratch.append(UInt8(truncatingIfNeeded: 0xE0 | v >> 12))
            scratch.append(UInt8(truncatingIfNeeded: 0x80 | v >> 6 & 0x3F))
            scratch.append(UInt8(truncatingIfNeeded: 0x80 | v & 0x3F))
        default:
            scratch.append(UInt8(truncatingIfNeeded: 0xF0 | v >> 18))
            scratch.append(UInt8(truncatingIfNeeded: 0x80 | v >> 12 & 0x3F))
            scratch.append(UInt8(truncatingIfNeeded: 0x80 | v >> 6 & 0x3F))
            scratch.append(UInt8(truncatingIfNeeded: 0x80 | v & 0x3F))
        }
    }
}
