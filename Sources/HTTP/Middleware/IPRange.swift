#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One address or CIDR range of an allow-list or of the trusted proxies ("10.0.0.1", "172.16.0.0/12",
/// "::1", "fd00::/8"). IPv4 and IPv6 never match each other; an IPv4-mapped IPv6 address
/// (`::ffff:a.b.c.d`) is compared as the IPv4 address it carries.
public struct IPRange: Sendable, Equatable {
    /// The network's bytes: 4 for IPv4, 16 for IPv6.
    public let bytes: [UInt8]
    /// The number of leading bits that must match.
    public let prefix: Int

    /// Parses `a.b.c.d`, `a.b.c.d/n`, an IPv6 address or `v6/n`. Nil if malformed.
    public static func parse(_ text: String) -> IPRange? {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 1 || parts.count == 2, let addr = IPRange.address(String(parts[0])) else { return nil }
        var prefix = addr.count * 8
        if parts.count == 2 {
            guard let p = Int(parts[1]), p >= 0, p <= addr.count * 8 else { return nil }
            prefix = p
        }
        return IPRange(bytes: addr, prefix: prefix)
    }

    /// The bytes of an address (4 for IPv4, including IPv4-mapped IPv6; 16 for IPv6). Nil if malformed.
    public static func address(_ text: String) -> [UInt8]? {
        var trimmed = text
        // Zone ids (`fe80::1%eth0`) are not meaningful for the allow-list.
        if let pct = trimmed.firstIndex(of: "%") { trimmed = String(trimmed[..<pct]) }
        var v4 = in_addr()
        if inet_pton(AF_INET, trimmed, &v4) == 1 {
            return withUnsafeBytes(of: &v4) { Array($0) }
        }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, trimmed, &v6) == 1 {
            let b = withUnsafeBytes(of: &v6) { Array($0) }
            // ::ffff:a.b.c.d is IPv4.
            if b.count == 16, b[0..<10].allSatisfy({ $0 == 0 }), b[10] == 0xff, b[11] == 0xff {
                return Array(b[12..<16])
            }
            return b
        }
        return nil
    }

    /// Whether the address bytes `addr` (as `address(_:)` returns them) fall in this range.
    public func contains(_ addr: [UInt8]) -> Bool {
        guard addr.count == bytes.count else { return false }
        var bits = prefix
        for i in 0..<bytes.count {
            if bits <= 0 { return true }
            let mask: UInt8 = bits >= 8 ? 0xff : UInt8(truncatingIfNeeded: 0xff << (8 - bits))
            if (addr[i] & mask) != (bytes[i] & mask) { return false }
            bits -= 8
        }
        return true
    }

    /// Whether the address `text` falls in any of `ranges`; false for text that is not an address.
    public static func any(_ ranges: [IPRange], contains text: String) -> Bool {
        guard !ranges.isEmpty, let addr = address(text) else { return false }
        return ranges.contains { $0.contains(addr) }
    }
}
