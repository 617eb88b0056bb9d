import Foundation

/// ISO 8601 / RFC 3339 timestamps without `DateFormatter`: plain integer arithmetic, so it is fast,
/// allocation-light and safe to call from any thread. The one implementation every module uses: Parse's
/// stored dates, the daemon's log lines, and any API that writes or reads RFC 3339 text.
public enum ISO8601 {
    /// `yyyy-MM-ddTHH:mm:ss.SSSZ` in UTC, the form Parse Server and JavaScript's `toISOString` write.
    ///
    /// The instant is rounded to the nearest millisecond, so a date parsed from a millisecond timestamp
    /// formats back to the same text even though `Date` stores binary fractions. Years outside
    /// 0000...9999 use the expanded form `±YYYYYY` as `toISOString` does.
    public static func formatMillis(_ d: Date) -> String {
        let interval = d.timeIntervalSince1970
        // Dates beyond ±2^62 ms (about 146 million years) are clamped rather than overflowing.
        let limit = 4.6e18
        let millis = interval.isFinite ? Int64(max(-limit, min(limit, (interval * 1000).rounded()))) : 0
        return format(epochMillis: millis)
    }

    /// `yyyy-MM-ddTHH:mm:ss.SSSZ` in UTC of an instant in milliseconds since 1970; years outside
    /// 0000...9999 in the expanded form `±YYYYYY` (more digits if needed), as `toISOString` writes them.
    /// Within 0000...9999 the text is exactly 24 bytes, so string order equals time order.
    public static func format(epochMillis millis: Int64) -> String {
        let (days, msOfDay) = floorDivide(millis, 86_400_000)
        let date = CivilDate(daysSinceEpoch: days)
        guard (0...9999).contains(date.year) else {
            // Rare: the expanded year, then the same month-to-millisecond tail.
            let digits = String(date.year.magnitude)
            let year = (date.year < 0 ? "-" : "+") + String(repeating: "0", count: max(0, 6 - digits.count)) + digits
            return year + fourDigitYear(0, date.month, date.day, Int(msOfDay)).dropFirst(4)
        }
        return fourDigitYear(Int(date.year), date.month, date.day, Int(msOfDay))
    }

    /// The 24-byte text of a date in years 0000...9999 and a time of day in milliseconds.
    private static func fourDigitYear(_ year: Int, _ month: Int, _ day: Int, _ ms: Int) -> String {
        // Written digit by digit into the result's own storage: Parse formats one for every create and
        // update on the single writer thread, and padded pieces joined as strings took a dozen allocations.
        String(unsafeUninitializedCapacity: 24) { out in
            var i = 0
            // Exactly `width` digits of `value`, most significant first; the widths are constants, so each
            // call unrolls into divisions by constants.
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
            let seconds = ms / 1000
            put(year, 4); sep("-"); put(month, 2); sep("-"); put(day, 2); sep("T")
            put(seconds / 3600, 2); sep(":"); put(seconds / 60 % 60, 2); sep(":"); put(seconds % 60, 2); sep(".")
            put(ms % 1000, 3); sep("Z")
            return i
        }
    }

    /// Parses `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM|±HHMM)`; nil for anything else.
    ///
    /// The fraction may have any number of digits (nanoseconds are kept, further digits ignored);
    /// `T`/`Z` may be lowercase as RFC 3339 allows. Fields are range-checked, including the day against
    /// the month and leap years; second 60 (a leap second) is refused, as JavaScript's `Date` refuses it.
    public static func parse(_ s: String) -> Date? {
        guard let instant = instant(s, compactOffset: true) else { return nil }
        return Date(timeIntervalSince1970: Double(instant.seconds) + Double(instant.nanos) / 1e9)
    }

    /// Milliseconds since 1970 of an RFC 3339 date-time (`T`/`t`, fraction optional, `Z`/`z` or
    /// `±HH:MM`; the colon is required), the fraction truncated to milliseconds. Nil for anything else,
    /// for text longer than 64 bytes (bounded to keep it cheap), and for an instant outside years
    /// 0000...9999 once shifted to UTC.
    public static func epochMillis(rfc3339 text: String) -> Int64? {
        // Shortest valid form: "YYYY-MM-DDTHH:MM:SSZ" (20 bytes).
        guard text.utf8.count >= 20, text.utf8.count <= 64,
              let instant = instant(text, compactOffset: false) else { return nil }
        let millis = instant.seconds * 1000 + Int64(instant.nanos / 1_000_000)
        return fourDigitYears.contains(millis) ? millis : nil
    }

    /// The instants, in milliseconds since 1970, whose text has a four-digit year and so is exactly 24
    /// bytes: 0000-01-01T00:00:00.000Z ... 9999-12-31T23:59:59.999Z.
    public static let fourDigitYears: ClosedRange<Int64> = -62_167_219_200_000...253_402_300_799_999

    /// An RFC 3339 date-time (as `epochMillis(rfc3339:)` reads it) rewritten as
    /// `yyyy-MM-ddTHH:mm:ss.SSSZ` in UTC; nil when `epochMillis(rfc3339:)` is nil.
    public static func normalize(_ text: String) -> String? {
        epochMillis(rfc3339: text).map { format(epochMillis: $0) }
    }

    // MARK: - Helpers

    /// Whole seconds since 1970 and nanoseconds of `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)`, where
    /// `compactOffset` also allows `±HHMM`.
    private static func instant(_ s: String, compactOffset: Bool) -> (seconds: Int64, nanos: Int)? {
        if let parsed = s.utf8.withContiguousStorageIfAvailable({ instant($0, compactOffset: compactOffset) }) {
            return parsed
        }
        return Array(s.utf8).withUnsafeBufferPointer { instant($0, compactOffset: compactOffset) }
    }

    private static func instant(_ bytes: UnsafeBufferPointer<UInt8>,
                                compactOffset: Bool) -> (seconds: Int64, nanos: Int)? {
        var reader = DigitReader(bytes: bytes)
        guard let year = reader.number(4), reader.skip("-"),
              let month = reader.number(2), reader.skip("-"),
              let day = reader.number(2), reader.skip("T") || reader.skip("t"),
              let hour = reader.number(2), reader.skip(":"),
              let minute = reader.number(2), reader.skip(":"),
              let second = reader.number(2)
        else { return nil }
        guard (1...12).contains(month), day >= 1, day <= CivilDate.daysInMonth(year: Int64(year), month: month),
              hour <= 23, minute <= 59, second <= 59 else { return nil }
        var nanos = 0
        if reader.skip(".") {
            var digits = 0
            while let d = reader.digit() {
                if digits < 9 { nanos = nanos * 10 + d }
                digits += 1
            }
            guard digits > 0 else { return nil }
            for _ in digits..<max(digits, 9) { nanos *= 10 }
        }
        var offsetSeconds = 0
        if reader.skip("Z") || reader.skip("z") {
            offsetSeconds = 0
        } else if let sign = reader.sign() {
            guard let offsetHours = reader.number(2) else { return nil }
            guard reader.skip(":") || compactOffset else { return nil }
            guard let offsetMinutes = reader.number(2), offsetHours <= 23, offsetMinutes <= 59 else { return nil }
            offsetSeconds = sign * (offsetHours * 3600 + offsetMinutes * 60)
        } else {
            return nil
        }
        guard reader.atEnd else { return nil }
        let days = CivilDate(year: Int64(year), month: month, day: day).daysSinceEpoch
        let seconds = days * 86_400 + Int64(hour * 3600 + minute * 60 + second - offsetSeconds)
        return (seconds, nanos)
    }

    /// Floor division and the matching non-negative remainder.
    static func floorDivide(_ a: Int64, _ b: Int64) -> (Int64, Int64) {
        let q = a / b, r = a % b
        return r < 0 ? (q - 1, r + b) : (q, r)
    }
}

/// A cursor over ASCII bytes for fixed-width date fields.
private struct DigitReader {
    let bytes: UnsafeBufferPointer<UInt8>
    var pos = 0

    var atEnd: Bool { pos == bytes.count }

    mutating func digit() -> Int? {
        guard pos < bytes.count, bytes[pos] >= UInt8(ascii: "0"), bytes[pos] <= UInt8(ascii: "9") else { return nil }
        defer { pos += 1 }
        return Int(bytes[pos] - UInt8(ascii: "0"))
    }

    /// Exactly `width` digits.
    mutating func number(_ width: Int) -> Int? {
        var value = 0
        for _ in 0..<width {
            guard let d = digit() else { return nil }
            value = value * 10 + d
        }
        return value
    }

    mutating func skip(_ c: Unicode.Scalar) -> Bool {
        guard pos < bytes.count, bytes[pos] == UInt8(ascii: c) else { return false }
        pos += 1
        return true
    }

    mutating func sign() -> Int? {
        if skip("+") { return 1 }
        if skip("-") { return -1 }
        return nil
    }
}
