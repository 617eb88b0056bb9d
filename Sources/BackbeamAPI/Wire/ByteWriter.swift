import Core
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A growing byte buffer written through a pointer: the page of a list query is written into it while its
/// rows are read. Appending to an `[UInt8]` went through the array's uniqueness and capacity checks and a
/// generic copy on every piece (about 190 instructions for a 12-byte id); here a piece is one capacity
/// comparison and one `memcpy`.
///
/// A class so that the row closure of `Database.forEachRow` can write into it; one writer belongs to one
/// query on one thread, so its stored properties skip the run-time exclusivity checks.
final class ByteWriter {
    @exclusivity(unchecked) private var base: UnsafeMutablePointer<UInt8>
    @exclusivity(unchecked) private var capacity: Int
    /// Bytes written.
    @exclusivity(unchecked) private(set) var count = 0

    /// An empty writer with room for `capacity` bytes before it first grows.
    init(capacity: Int) {
        self.capacity = max(64, capacity)
        base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    /// The bytes written.
    var bytes: [UInt8] { Array(UnsafeBufferPointer(start: base, count: count)) }

    /// Makes room for `n` more bytes.
    @inline(__always)
    func reserve(_ n: Int) {
        if n > capacity - count { grow(count + n) }
    }

    private func grow(_ needed: Int) {
        let newCapacity = max(needed, capacity * 2)
        let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        grown.update(from: base, count: count)
        base.deallocate()
        base = grown
        capacity = newCapacity
    }

    /// Appends one byte.
    @inline(__always)
    func append(_ byte: UInt8) {
        reserve(1)
        base[count] = byte
        count += 1
    }

    /// Appends `bytes` (SQLite's own buffer of a column, or a piece of one).
    @inline(__always)
    func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        reserve(bytes.count)
        memcpy(base + count, source, bytes.count)
        count += bytes.count
    }

    /// Appends the bytes of a literal.
    @inline(__always)
    func append(_ literal: StaticString) {
        append(UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }

    /// Drops what was written after the first `count` bytes.
    func truncate(to count: Int) {
        self.count = max(0, min(count, self.count))
    }

    /// Appends `bytes`.
    func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { append($0) }
    }

    /// Appends the text as a JSON string: in one piece between quotes when nothing needs escaping (ids and
    /// entity names never do), else escaped exactly as `JSON.appendQuoted` escapes.
    func appendQuoted(_ text: UnsafeBufferPointer<UInt8>) {
        guard JSON.needsEscape(text) else {
            reserve(text.count + 2)
            base[count] = UInt8(ascii: "\"")
            count += 1
            append(text)
            base[count] = UInt8(ascii: "\"")
            count += 1
            return
        }
        var escaped: [UInt8] = []
        JSON.appendQuoted(utf8: text, to: &escaped)
        append(escaped)
    }

    /// Appends a decimal integer, written in place two digits at a time (no `String`, no Foundation):
    /// every object carries two 13-digit times, and a digit at a time cost about 300 instructions each. The
    /// digit count comes from the bit length and one comparison, not a loop over the powers of ten (that loop
    /// was about half of the 240 instructions a time cost).
    func appendInt(_ value: Int64) {
        // At most 19 digits and a sign.
        reserve(21)
        var magnitude = value.magnitude
        var start = base + count
        if value < 0 {
            start.pointee = UInt8(ascii: "-")
            start += 1
        }
        // floor(bits × log10 2) (1233 / 4096 ≈ 0.30103) is the digit count or one less; 2^63 has 19 digits,
        // so the index stays within the table.
        let estimate = ((64 - magnitude.leadingZeroBitCount) &* 1233) >> 12
        let digits = max(1, magnitude >= Self.powersOfTen[estimate] ? estimate + 1 : estimate)
        let end = start + digits
        var position = end
        let pairs = Self.digitPairs.utf8Start
        while magnitude >= 100 {
            let quotient = magnitude / 100
            let pair = Int(truncatingIfNeeded: magnitude &- quotient &* 100) &* 2
            magnitude = quotient
            position -= 2
            position[0] = pairs[pair]
            position[1] = pairs[pair + 1]
        }
        if magnitude >= 10 {
            let pair = Int(truncatingIfNeeded: magnitude) &* 2
            position[-2] = pairs[pair]
            position[-1] = pairs[pair + 1]
        } else {
            position[-1] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude)
        }
        count = base.distance(to: end)
    }

    /// 10^0 to 10^19, for `appendInt`.
    private static let powersOfTen: [UInt64] = (0..<20).reduce(into: []) { powers, i in
        powers.append(i == 0 ? 1 : powers[i - 1] &* 10)
    }

    /// "00" to "99", for `appendInt`.
    private static let digitPairs: StaticString = """
        00010203040506070809101112131415161718192021222324252627282930313233343536373839\
        40414243444546474849505152535455565758596061626364656667686970717273747576777879\
        8081828384858687888990919293949596979899
        """
}
