import Foundation

/// Parse's timestamp form `yyyy-MM-dd'T'HH:mm:ss.SSS'Z'`.
///
/// Stored dates use exactly this fixed-width text, so string order equals time order and the query
/// compiler can compare them as text (spec §4.5, §7.12).
enum ParseDate {
    /// Normalises an RFC 3339 date-time (`T`/`t`, fraction optional, `Z`/`z` or `±HH:MM`) to UTC with
    /// millisecond precision (extra fractional digits truncated). Nil for anything else.
    static func normalize(_ text: String) -> String? {
        let b = Array(text.utf8)
        // Shortest valid form: "YYYY-MM-DDTHH:MM:SSZ" (20 bytes); bound the length to keep this cheap.
        guard b.count >= 20, b.count <= 64 else { return nil }
        func digits(_ start: Int, _ count: Int) -> Int? {
            guard start >= 0, start + count <= b.count else { return nil }
            var v = 0
            for i in start..<(start + count) {
                let c = b[i]
                guard c >= 48, c <= 57 else { return nil }
                v = v * 10 + Int(c - 48)
            }
            return v
        }
        guard let year = digits(0, 4), b[4] == 45, let month = digits(5, 2), b[7] == 45, let day = digits(8, 2),
              b[10] == 84 || b[10] == 116, let hour = digits(11, 2), b[13] == 58, let minute = digits(14, 2),
              b[16] == 58, let second = digits(17, 2) else { return nil }
        guard (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year),
              hour <= 23, minute <= 59, second <= 59 else { return nil }
        var i = 19
        var millis = 0
        if i < b.count, b[i] == 46 {
            i += 1
            var n = 0
            while i < b.count, b[i] >= 48, b[i] <= 57 {
                if n < 3 { millis = millis * 10 + Int(b[i] - 48) }
                n += 1
                i += 1
            }
            guard n >= 1 else { return nil }
            for _ in min(n, 3)..<3 { millis *= 10 }
        }
        guard i < b.count else { return nil }
        var offsetMinutes = 0
        if b[i] == 90 || b[i] == 122 {
            guard i + 1 == b.count else { return nil }
        } else if b[i] == 43 || b[i] == 45 {
            guard i + 6 == b.count, let oh = digits(i + 1, 2), b[i + 3] == 58, let om = digits(i + 4, 2),
                  oh <= 23, om <= 59 else { return nil }
            offsetMinutes = (oh * 60 + om) * (b[i] == 43 ? 1 : -1)
        } else {
            return nil
        }
        let days = daysFromCivil(year: year, month: month, day: day)
        let totalMillis = ((days * 86_400 + hour * 3600 + minute * 60 + second) - offsetMinutes * 60) * 1000 + millis
        let result = format(epochMillis: totalMillis)
        // Years outside 0000-9999 after shifting cannot be written in the fixed-width form.
        guard result.utf8.count == 24 else { return nil }
        return result
    }

    /// The fixed-width text of an instant given in milliseconds since 1970.
    static func format(epochMillis: Int) -> String {
        let ms = ((epochMillis % 1000) + 1000) % 1000
        let secs = (epochMillis - ms) / 1000
        let sod = ((secs % 86_400) + 86_400) % 86_400
        let days = (secs - sod) / 86_400
        let (y, m, d) = civilFromDays(days)
        guard y >= 0, y <= 9999 else { return "" }
        // Written digit by digit into the 24 bytes of the result: every create and update formats one, on
        // the single writer thread, and the padded pieces joined as strings took a dozen allocations.
        return String(unsafeUninitializedCapacity: 24) { out in
            var i = 0
            func put(_ value: Int, _ width: Int) {
                var divisor = 1
                for _ in 1..<width { divisor *= 10 }
                var v = value
                while divisor > 0 {
                    out[i] = UInt8(truncatingIfNeeded: 48 + v / divisor)
                    v %= divisor
                    divisor /= 10
                    i += 1
                }
            }
            func sep(_ c: Unicode.Scalar) {
                out[i] = UInt8(ascii: c)
                i += 1
            }
            put(y, 4); sep("-"); put(m, 2); sep("-"); put(d, 2); sep("T")
            put(sod / 3600, 2); sep(":"); put((sod / 60) % 60, 2); sep(":"); put(sod % 60, 2); sep(".")
            put(ms, 3); sep("Z")
            return i
        }
    }

    /// The current time in the fixed-width form.
    static func now() -> String { format(epochMillis: nowMillis()) }

    /// Milliseconds since 1970 of the wall clock.
    static func nowMillis() -> Int { Int((Date().timeIntervalSince1970 * 1000).rounded(.down)) }

    /// Milliseconds since 1970 of a normalised timestamp (nil if it is not one).
    static func epochMillis(_ ts: String) -> Int? {
        guard let n = normalize(ts) else { return nil }
        let b = Array(n.utf8)
        func num(_ s: Int, _ c: Int) -> Int { var v = 0; for i in s..<(s + c) { v = v * 10 + Int(b[i] - 48) }; return v }
        let days = daysFromCivil(year: num(0, 4), month: num(5, 2), day: num(8, 2))
        return (days * 86_400 + num(11, 2) * 3600 + num(14, 2) * 60 + num(17, 2)) * 1000 + num(20, 3)
    }

    private static func isLeap(_ y: Int) -> Bool { (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    // Howard Hinnant's civil-calendar algorithms (proleptic Gregorian, day 0 = 1970-01-01).
    private static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    private static func civilFromDays(_ z0: Int) -> (Int, Int, Int) {
        let z = z0 + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }
}
