#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Byte classes of the HTTP/1.1 grammar (RFC 9110 section 5.6.2, RFC 9112), as small pure functions
/// so the parser's hot loops never allocate or consult tables that could be indexed out of range.
enum ByteClass {
    static let cr: UInt8 = 0x0D
    static let lf: UInt8 = 0x0A
    static let space: UInt8 = 0x20
    static let tab: UInt8 = 0x09
    static let colon: UInt8 = 0x3A

    /// `tchar`: the characters allowed in tokens (methods, header names, codings).
    @inline(__always)
    static func isTokenChar(_ b: UInt8) -> Bool {
        switch b {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: return true            // DIGIT / ALPHA
        case 0x21, 0x23, 0x24, 0x25, 0x26, 0x27, 0x2A, 0x2B, 0x2D, 0x2E,    // ! # $ % & ' * + - .
             0x5E, 0x5F, 0x60, 0x7C, 0x7E:                                  // ^ _ ` | ~
            return true
        default: return false
        }
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

    /// The value of a hexadecimal digit, nil for any other byte.
    @inline(__always)
    static func hexValue(_ b: UInt8) -> Int? {
        switch b {
        case 0x30...0x39: return Int(b &- 0x30)
        case 0x41...0x46: return Int(b &- 0x41 &+ 10)
        case 0x61...0x66: return Int(b &- 0x61 &+ 10)
        default: return nil
        }
    }
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
