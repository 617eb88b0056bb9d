import Foundation

/// ISO 8601 / RFC 3339 timestamps without `DateFormatter`: plain integer arithmetic, so it is fast,
/// allocation-light and safe to call from any thread.
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
        let (days, msOfDay) = floorDivide(millis, 86_400_000)
        let date = CivilDate(daysSinceEpoch: days)
        var out: [UInt8] = []
        out.reserveCapacity(27)
        if (0...9999).contains(date.year) {
            appendDigits(&out, date.year, width: 4)
        } else {
            out.append(date.year < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+"))
            appendDigits(&out, date.year.magnitude, width: 6)
        }
        out.append(UInt8(ascii: "-"))
        appendDigits(&out, UInt64(date.month), width: 2)
        out.append(UInt8(ascii: "-"))
        appendDigits(&out, UInt64(date.day), width: 2)
        out.append(UInt8(ascii: "T"))
        appendDigits(&out, UInt64(msOfDay / 3_600_000), width: 2)
        out.append(UInt8(ascii: ":"))
        appendDigits(&out, UInt64(msOfDay / 60_000 % 60), width: 2)
        out.append(UInt8(ascii: ":"))
        appendDigits(&out, UInt64(msOfDay / 1000 % 60), width: 2)
        out.append(UInt8(ascii: "."))
        appendDigits(&out, UInt64(msOfDay % 1000), width: 3)
        out.append(UInt8(ascii: "Z"))
        return String(decoding: out, as: UTF8.self)
    }

    /// Parses `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM|±HHMM)`; nil for anything else.
    ///
    /// The fraction may have any number of digits (nanoseconds are kept, further digits ignored);
    /// `T`/`Z` may be lowercase as RFC 3339 allows. Fields are range-checked, including the day against
    /// the month and leap years; second 60 (a leap second) is refused, as JavaScript's `Date` refuses it.
    public static func parse(_ s: String) -> Date? {
        var reader = DigitReader(bytes: Array(s.utf8))
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
            _ = reader.skip(":")
            guard let offsetMinutes = reader.number(2), offsetHours <= 23, offsetMinutes <= 59 else { return nil }
            offsetSeconds = sign * (offsetHours * 3600 + offsetMinutes * 60)
        } else {
            return nil
        }
        guard reader.atEnd else { return nil }
        let days = CivilDate(year: Int64(year), month: month, day: day).daysSinceEpoch
        let seconds = days * 86_400 + Int64(hour * 3600 + minute * 60 + second - offsetSeconds)
        return Date(timeIntervalSince1970: Double(seconds) + Double(nanos) / 1e9)
    }

    // MARK: - Helpers

    /// Floor division and the matching non-negative remainder.
    private static func floorDivide(_ a: Int64, _ b: Int64) -> (Int64, Int64) {
        let q = a / b, r = a % b
        return r < 0 ? (q - 1, r + b) : (q, r)
    }

    private static func appendDigits<T: BinaryInteger>(_ out: inout [UInt8], _ value: T, width: Int) {
        var digits: [UInt8] = []
        var v = value.magnitude
        repeat {
            digits.append(UInt8(ascii: "0") + UInt8(truncatingIfNeeded: v % 10))
            v /= 10
        } while v > 0
        if digits.count < width { out += repeatElement(UInt8(ascii: "0"), count: width - digits.count) }
        out += digits.reversed()
    }
}

/// A cursor over ASCII bytes for fixed-width date fields.
private struct DigitReader {
    let bytes: [UInt8]
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
