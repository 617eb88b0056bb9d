#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Core

/// Byte classes of the HTTP/1.1 grammar (RFC 9110 section 5.6.2, RFC 9112), as small pure functions
/// so the parser's hot loops never allocate or consult tables that could be indexed out of range.
enum ByteClass {
    static let cr: UInt8 = 0x0D
    static let lf: UInt8 = 0x0A
    static let space: UInt8 = 0x20
    static let tab: UInt8 = 0x09
    static let colon: UInt8 = 0x3A

    /// `tchar`: the characters allowed in tokens (methods, header names, codings):
    /// ``! # $ % & ' * + - . ^ _ ` | ~``, digits and letters. Looked up in a 128-bit mask split over two
    /// words, which is branch-light and needs no table in memory.
    @inline(__always)
    static func isTokenChar(_ b: UInt8) -> Bool {
        // Bits 33, 35-39, 42, 43, 45, 46 and 48-57 (digits) of the first 64 code points.
        let low: UInt64 = 0x03FF_6CFA_0000_0000
        // Bits 65-90 (A-Z), 94-96 (^ _ `), 97-122 (a-z), 124 (|) and 126 (~), minus 64.
        let high: UInt64 = 0x57FF_FFFF_C7FF_FFFE
        if b < 64 { return (low >> UInt64(b)) & 1 == 1 }
        if b < 128 { return (high >> UInt64(b &- 64)) & 1 == 1 }
        return false
    }

    /// A byte allowed inside a field value: HTAB, SP, VCHAR or obs-text. Everything else (NUL, CR, LF,
    /// other controls, DEL) is rejected, which is what keeps bare CR and NUL out of header values.
    @inline(__always)
    static func isFieldValueChar(_ b: UInt8) -> Bool {
        b == tab || (b >= 0x20 && b != 0x7F)
    }

    /// Optional whitespace (OWS): SP or HTAB.
    @inline(__always)
    static func isOWS(_ b: UInt8) -> Bool { b == space || b == tab }

    /// Lower-cases an ASCII letter, leaves every other byte alone.
    @inline(__always)
    static func lower(_ b: UInt8) -> UInt8 { (b >= 0x41 && b <= 0x5A) ? b | 0x20 : b }

}

extension UnsafeRawBufferPointer {
    /// Offset of the first `byte` in `from..<to`, found with memchr; nil when absent.
    @inline(__always)
    func firstIndex(of byte: UInt8, from: Int, to: Int) -> Int? {
        guard from < to, let base = baseAddress else { return nil }
        guard let hit = memchr(base + from, Int32(byte), to - from) else { return nil }
        return base.distance(to: UnsafeRawPointer(hit))
    }

    /// True when the bytes at `start..<start+length` equal `lowercase` ignoring ASCII case
    /// (`lowercase` must already be lower-case).
    @inline(__always)
    func equalsIgnoringCase(start: Int, length: Int, lowercase: StaticString) -> Bool {
        guard length == lowercase.utf8CodeUnitCount else { return false }
        let expected = lowercase.utf8Start
        for i in 0..<length where ByteClass.lower(self[start + i]) != expected[i] {
            return false
        }
        return true
    }

    /// A String of `start..<end`, decoding UTF-8 leniently (invalid sequences become U+FFFD).
    @inline(__always)
    func string(_ start: Int, _ end: Int) -> String {
        String(decoding: UnsafeRawBufferPointer(rebasing: self[start..<end]), as: UTF8.self)
    }
}

extension UnsafeRawBufferPointer {
    /// True when every byte in `start..<end` may appear in a field value (see `ByteClass.isFieldValueChar`).
    /// Eight bytes are tested per step: a word with no byte below 0x20 and no DEL is accepted at once,
    /// and only words that might hold a control byte (or an allowed HTAB) are checked byte by byte.
    @inline(__always)
    func allFieldValueChars(from start: Int, to end: Int) -> Bool {
        var index = start
        if let base = baseAddress {
            while end - index >= 8 {
                let word = base.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                if WordBytes.below(word, 0x20) | WordBytes.equal(word, 0x7F) != 0 { break }
                index += 8
            }
        }
        while index < end {
            guard ByteClass.isFieldValueChar(self[index]) else { return false }
            index += 1
        }
        return true
    }
}
