/// Geohash encoding (base 32, interleaving longitude and latitude bits, longitude first).
public enum Geohash {
    private static let alphabet: [UInt8] = Array("0123456789bcdefghjkmnpqrstuvwxyz".utf8)

    /// The geohash of a point with `length` characters (7 by default: about 150 m, what the hosted
    /// service answered; clients ignore it).
    public static func encode(lat: Double, lon: Double, length: Int = 7) -> String {
        var latRange = (-90.0, 90.0), lonRange = (-180.0, 180.0)
        var out: [UInt8] = []
        var bits = 0, value = 0, even = true
        while out.count < max(0, length) {
            if even {
                let mid = (lonRange.0 + lonRange.1) / 2
                if lon >= mid { value = value << 1 | 1; lonRange.0 = mid } else { value <<= 1; lonRange.1 = mid }
            } else {
                let mid = (latRange.0 + latRange.1) / 2
                if lat >= mid { value = value << 1 | 1; latRange.0 = mid } else { value <<= 1; latRange.1 = mid }
            }
            even.toggle()
            bits += 1
            if bits == 5 {
                out.append(alphabet[value])
                bits = 0
                value = 0
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
