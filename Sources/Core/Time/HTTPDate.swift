#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// HTTP-dates (RFC 9110 §5.6.7) without Foundation, on the same calendar arithmetic as `ISO8601`: IMF-fixdate
/// ("Sun, 06 Nov 1994 08:49:37 GMT") written for `Date` and `Last-Modified` headers, and all three forms
/// read for conditional requests (`parse`, in HTTPDate+Parse.swift).
public enum HTTPDate {
    private static let days: [String] = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    /// The month names of both forms, January first.
    /// The day names (Sunday first) and then the month names, three letters each, for the one-piece writer.
    private static let dayAndMonthNames: StaticString = "SunMonTueWedThuFriSatJanFebMarAprMayJunJulAugSepOctNovDec"
    static let months: [String] = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov",
                                   "Dec"]

    /// Formats a UNIX time in seconds. The year is written as plain decimal (not padded), as C's `gmtime`
    /// fields print; an instant whose year does not fit C's `tm` (beyond about two billion years) gives
    /// the epoch's text, as a failed `gmtime_r` did.
    public static func format(epochSeconds: Int) -> String {
        let (days, secondOfDay) = ISO8601.floorDivide(Int64(epochSeconds), 86_400)
        let date = CivilDate(daysSinceEpoch: days)
        guard let tmYear = Int32(exactly: date.year - 1900) else { return "Thu, 01 Jan 1970 00:00:00 GMT" }
        // 1970-01-01 was a Thursday (index 4).
        let weekday = Int(ISO8601.floorDivide(days + 4, 7).1)
        let seconds = Int(secondOfDay)
        if date.year >= 1000 && date.year <= 9999 && weekday >= 0 && weekday < 7 && date.month >= 1 && date.month <= 12 {
            // The fixed 29 bytes of every date of years 1000...9999 (all there are in practice), written
            // straight into the string's storage.
            return String(unsafeUninitializedCapacity: 29) { buffer in
                guard buffer.count >= 29, let base = buffer.baseAddress else { return 0 }
                func digits(_ value: Int, at offset: Int, count: Int) {
                    var rest = value
                    var index = offset + count
                    while index > offset {
                        index -= 1
                        base[index] = UInt8(truncatingIfNeeded: 48 + rest % 10)
                        rest /= 10
                    }
                }
                let names = Self.dayAndMonthNames.utf8Start
                let day = weekday * 3, month = 21 + (date.month - 1) * 3
                base[0] = names[day]; base[1] = names[day + 1]; base[2] = names[day + 2]
                base[3] = UInt8(ascii: ","); base[4] = UInt8(ascii: " ")
                digits(date.day, at: 5, count: 2)
                base[7] = UInt8(ascii: " ")
                base[8] = names[month]; base[9] = names[month + 1]; base[10] = names[month + 2]
                base[11] = UInt8(ascii: " ")
                digits(Int(date.year), at: 12, count: 4)
                base[16] = UInt8(ascii: " ")
                digits(seconds / 3600, at: 17, count: 2)
                base[19] = UInt8(ascii: ":")
                digits(seconds / 60 % 60, at: 20, count: 2)
                base[22] = UInt8(ascii: ":")
                digits(seconds % 60, at: 23, count: 2)
                base[25] = UInt8(ascii: " "); base[26] = UInt8(ascii: "G"); base[27] = UInt8(ascii: "M")
                base[28] = UInt8(ascii: "T")
                return 29
            }
        }
        // Written as bytes: every file download carries a Last-Modified, and string interpolation of nine
        // pieces cost about 9,000 instructions.
        var out: [UInt8] = []
        out.reserveCapacity(32)
        out.append(contentsOf: Self.days[weekday].utf8)
        out.append(contentsOf: [UInt8(ascii: ","), UInt8(ascii: " ")])
        two(date.day, &out)
        out.append(UInt8(ascii: " "))
        out.append(contentsOf: months[date.month - 1].utf8)
        out.append(UInt8(ascii: " "))
        out.append(contentsOf: String(Int(tmYear) + 1900).utf8)
        out.append(UInt8(ascii: " "))
        two(seconds / 3600, &out)
        out.append(UInt8(ascii: ":"))
        two(seconds / 60 % 60, &out)
        out.append(UInt8(ascii: ":"))
        two(seconds % 60, &out)
        out.append(contentsOf: " GMT".utf8)
        return String(decoding: out, as: UTF8.self)
    }

    /// Two decimal digits of `value` (0...99), or more digits as they come (never reached by the fields).
    private static func two(_ value: Int, _ out: inout [UInt8]) {
        guard value >= 0, value < 100 else {
            out.append(contentsOf: String(value).utf8)
            return
        }
        out.append(UInt8(ascii: "0") + UInt8(value / 10))
        out.append(UInt8(ascii: "0") + UInt8(value % 10))
    }

    /// The current UNIX time in whole seconds, from the coarse clock (cheap; one-second resolution is all
    /// the Date header needs). Inlinable: it is read for every response the server writes.
    @inlinable
    public static func nowSeconds() -> Int {
        var spec = timespec()
        #if os(Linux)
        clock_gettime(CLOCK_REALTIME_COARSE, &spec)
        #else
        clock_gettime(CLOCK_REALTIME, &spec)
        #endif
        return Int(spec.tv_sec)
    }
}
