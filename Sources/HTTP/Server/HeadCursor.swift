#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Core

/// Writes a response head into a buffer of a size measured beforehand, one `memcpy` per piece. Appending
/// each piece to the connection's `[UInt8]` checked capacity and uniqueness every time (about 90
/// instructions per piece, four pieces per header line); here a piece costs a bounds check and a copy.
///
/// Never writes past `capacity`: a piece that does not fit sets `overflowed` and is dropped, and the caller
/// then writes the head the piecewise way instead (the measurement and the writing disagree only through a
/// defect, but a defect must not become a memory fault or a trap).
struct HeadCursor {
    let base: UnsafeMutablePointer<UInt8>
    let capacity: Int
    private(set) var count = 0
    private(set) var overflowed = false

    init(base: UnsafeMutablePointer<UInt8>, capacity: Int) {
        self.base = base
        self.capacity = capacity
    }

    /// The bytes written so far.
    var written: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: base, count: count) }

    /// Copies `bytes`.
    @inline(__always)
    mutating func write(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard !overflowed, bytes.count <= capacity &- count else {
            overflowed = true
            return
        }
        if let source = bytes.baseAddress, bytes.count > 0 {
            memcpy(base + count, source, bytes.count)
        }
        count &+= bytes.count
    }

    /// Copies the bytes of a static string.
    @inline(__always)
    mutating func write(_ text: StaticString) {
        text.withUTF8Buffer { write($0) }
    }

    /// Copies the bytes of an array.
    @inline(__always)
    mutating func write(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { write($0) }
    }

    /// Copies one byte.
    @inline(__always)
    mutating func write(byte: UInt8) {
        guard !overflowed, count < capacity else {
            overflowed = true
            return
        }
        base[count] = byte
        count &+= 1
    }

    /// Copies the UTF-8 of `text` with CR, LF and NUL replaced by spaces (see
    /// `ResponseHeadWriter.appendSanitized`), reading a native string's storage in place.
    mutating func writeSanitized(_ text: String) {
        let start = count
        // Native strings lend their storage without a copy; small ones (up to 15 bytes, stored inline) do not
        // have storage to lend and are copied to the stack by `withUTF8`.
        if text.utf8.withContiguousStorageIfAvailable({ write($0) }) == nil {
            var text = text
            text.withUTF8 { write($0) }
        }
        guard !overflowed else { return }
        let piece = UnsafeBufferPointer(start: base + start, count: count &- start)
        guard ResponseHeadWriter.hasControlBelow14(piece) else { return }
        for index in start..<count where base[index] == 13 || base[index] == 10 || base[index] == 0 {
            base[index] = 32
        }
    }

    /// Writes `value` in decimal, as `ResponseHeadWriter.appendDecimal` does.
    mutating func writeDecimal(_ value: Int) {
        if value < 0 {
            write(byte: UInt8(ascii: "-"))
            // Int.min has no positive counterpart; its magnitude is written as Int.max, as `appendDecimal` does.
            writeDecimal(value == Int.min ? Int.max : -value)
            return
        }
        let digits = HeadCursor.decimalDigits(value)
        guard !overflowed, digits <= capacity &- count else {
            overflowed = true
            return
        }
        var rest = value
        var index = count &+ digits
        while index > count {
            index &-= 1
            base[index] = UInt8(truncatingIfNeeded: 48 &+ rest % 10)
            rest /= 10
        }
        count &+= digits
    }

    /// The number of bytes `writeDecimal` writes for `value`.
    static func decimalDigits(_ value: Int) -> Int {
        if value < 0 { return 1 + decimalDigits(value == Int.min ? Int.max : -value) }
        var digits = 1
        var rest = value
        while rest >= 10 {
            rest /= 10
            digits += 1
        }
        return digits
    }
}
