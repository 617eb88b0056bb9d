/// Decimal digits to the little-endian binary magnitude Erlang's big-integer terms carry (§4.5: integer
/// literals are exact integers).
///
/// The conversion is schoolbook, quadratic in the number of digits. That is cheap for any integer a JSON
/// document plausibly holds, but a body of 8 MiB could be one literal of millions of digits, which would
/// cost minutes of CPU (even subquadratic multiplication leaves it at tens of seconds). So only literals
/// of at most `maxExactDigits` digits are converted; `ExternalTermWriter+JSON` hashes longer ones as a
/// term no JSON value can produce (see there).
enum DecimalMagnitude {
    /// Longest integer literal (in digits, sign excluded) hashed as an exact integer: 4096 digits is a
    /// 13,600-bit number, far beyond any real document, and converts in tens of microseconds.
    static let maxExactDigits = 4096

    /// 10^19 is the largest power of ten below 2^64: 19 digits go into one 64-bit limb step.
    static let digitsPerStep = 19

    /// The magnitude of the ASCII decimal `digits` (no sign; leading zeros allowed) as little-endian bytes,
    /// without high zero bytes (empty for zero). Cost grows with the square of the digit count: callers
    /// bound it by `maxExactDigits`.
    static func littleEndianBytes(decimal digits: some Collection<UInt8>) -> [UInt8] {
        let significant = Array(digits.drop { $0 == UInt8(ascii: "0") })
        var limbs: [UInt64] = []   // little-endian, base 2^64
        limbs.reserveCapacity(significant.count / digitsPerStep + 1)
        var i = 0
        while i < significant.count {
            let end = min(i + digitsPerStep, significant.count)
            var chunk: UInt64 = 0
            var scale: UInt64 = 1
            for c in significant[i..<end] {
                // At most 19 digits: chunk < 10^19 < 2^64 and scale ≤ 10^19.
                chunk = chunk &* 10 &+ UInt64(c &- UInt8(ascii: "0"))
                scale = scale &* 10
            }
            // limbs = limbs · scale + chunk.
            var carry = chunk
            limbs.withUnsafeMutableBufferPointer { limbs in
                for j in limbs.indices {
                    let (high, low) = limbs[j].multipliedFullWidth(by: scale)
                    let (sum, overflow) = low.addingReportingOverflow(carry)
                    limbs[j] = sum
                    // high ≤ scale − 1 < 2^64 − 1, so adding the one-bit overflow cannot wrap.
                    carry = high &+ (overflow ? 1 : 0)
                }
            }
            if carry != 0 { limbs.append(carry) }
            i = end
        }
        var out: [UInt8] = []
        out.reserveCapacity(limbs.count * 8)
        for limb in limbs {
            for shift in stride(from: 0, to: 64, by: 8) { out.append(UInt8(truncatingIfNeeded: limb >> UInt64(shift))) }
        }
        while out.last == 0 { out.removeLast() }
        return out
    }
}
