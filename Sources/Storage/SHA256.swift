/// SHA-256 (FIPS 180-4), incremental. Storage may not link OpenSSL, and blob addressing needs only
/// this one digest, so it is implemented here.
public struct SHA256: Sendable {
    /// Round constants: the first 32 bits of the fractional parts of the cube roots of the first 64 primes.
    private static let k: [UInt32] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
        0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
        0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
        0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
        0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
        0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
        0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
    ]

    /// Initial hash: the first 32 bits of the fractional parts of the square roots of the first 8 primes.
    private var h: [UInt32] = [
        0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
    ]
    /// Bytes waiting for a full 64-byte block.
    private var buffer: [UInt8] = []
    /// Total message length in bytes (the padding encodes it in bits, modulo 2^64 as the standard says).
    private var length: UInt64 = 0

    /// A fresh digest.
    public init() {
        buffer.reserveCapacity(64)
    }

    /// Feeds more message bytes.
    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
        length &+= UInt64(bytes.count)
        var index = 0
        if !buffer.isEmpty {
            let take = min(64 - buffer.count, bytes.count)
            buffer.append(contentsOf: bytes[0..<take])
            index = take
            guard buffer.count == 64 else { return }
            buffer.withUnsafeBytes { compress($0, at: 0) }
            buffer.removeAll(keepingCapacity: true)
        }
        while bytes.count - index >= 64 {
            compress(bytes, at: index)
            index += 64
        }
        if index < bytes.count {
            buffer.append(contentsOf: bytes[index..<bytes.count])
        }
    }

    /// Feeds more message bytes.
    public mutating func update<S: Sequence>(_ bytes: S) where S.Element == UInt8 {
        let array = Array(bytes)
        array.withUnsafeBytes { update($0) }
    }

    /// Pads the message and returns the 32-byte digest.
    public mutating func finalize() -> [UInt8] {
        let bitLength = length &* 8
        var tail = buffer
        tail.append(0x80)
        // Pad with zeros until 8 bytes short of a block boundary, then the 64-bit big-endian bit length.
        while tail.count % 64 != 56 { tail.append(0) }
        for shift in stride(from: 56, through: 0, by: -8) {
            tail.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift)))
        }
        tail.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                compress(raw, at: offset)
                offset += 64
            }
        }
        buffer.removeAll()
        var digest: [UInt8] = []
        digest.reserveCapacity(32)
        for word in h {
            digest.append(UInt8(truncatingIfNeeded: word >> 24))
            digest.append(UInt8(truncatingIfNeeded: word >> 16))
            digest.append(UInt8(truncatingIfNeeded: word >> 8))
            digest.append(UInt8(truncatingIfNeeded: word))
        }
        return digest
    }

    /// The digest of `bytes`.
    public static func hash(_ bytes: [UInt8]) -> [UInt8] {
        var digest = SHA256()
        bytes.withUnsafeBytes { digest.update($0) }
        return digest.finalize()
    }

    /// The digest of `bytes` as 64 lowercase hex digits.
    public static func hexHash(_ bytes: [UInt8]) -> String {
        hex(hash(bytes))
    }

    /// Lowercase hex of `bytes`.
    public static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static func rotr(_ x: UInt32, _ n: UInt32) -> UInt32 { (x >> n) | (x << (32 - n)) }

    /// Processes the 64-byte block at `offset` (callers guarantee `offset + 64 <= block.count`).
    private mutating func compress(_ block: UnsafeRawBufferPointer, at offset: Int) {
        var w = [UInt32](repeating: 0, count: 64)
        for i in 0..<16 {
            let p = offset + i * 4
            w[i] = UInt32(block[p]) << 24 | UInt32(block[p + 1]) << 16 | UInt32(block[p + 2]) << 8 | UInt32(block[p + 3])
        }
        for i in 16..<64 {
            let s0 = Self.rotr(w[i - 15], 7) ^ Self.rotr(w[i - 15], 18) ^ (w[i - 15] >> 3)
            let s1 = Self.rotr(w[i - 2], 17) ^ Self.rotr(w[i - 2], 19) ^ (w[i - 2] >> 10)
            w[i] = w[i - 16] &+ s0 &+ w[i - 7] &+ s1
        }
        var a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7]
        for i in 0..<64 {
            let s1 = Self.rotr(e, 6) ^ Self.rotr(e, 11) ^ Self.rotr(e, 25)
            let choose = (e & f) ^ (~e & g)
            let t1 = hh &+ s1 &+ choose &+ Self.k[i] &+ w[i]
            let s0 = Self.rotr(a, 2) ^ Self.rotr(a, 13) ^ Self.rotr(a, 22)
            let majority = (a & b) ^ (a & c) ^ (b & c)
            let t2 = s0 &+ majority
            hh = g; g = f; f = e; e = d &+ t1
            d = c; c = b; b = a; a = t1 &+ t2
        }
        h[0] &+= a; h[1] &+= b; h[2] &+= c; h[3] &+= d
        h[4] &+= e; h[5] &+= f; h[6] &+= g; h[7] &+= hh
    }
}
