import Glibc
import XCTest
@testable import Core

/// IMF-fixdate from Core's calendar arithmetic, checked against the C library's `gmtime_r`.
final class HTTPDateTests: XCTestCase {
    private let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// The text built from `gmtime_r`'s fields, or the epoch's when it fails.
    private func reference(_ epochSeconds: Int) -> String {
        var seconds = time_t(epochSeconds)
        var parts = tm()
        guard gmtime_r(&seconds, &parts) != nil else { return "Thu, 01 Jan 1970 00:00:00 GMT" }
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(days[Int(parts.tm_wday)]), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon)]) "
            + "\(Int(parts.tm_year) + 1900) \(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
    }

    func testKnownDates() {
        XCTAssertEqual(HTTPDate.format(epochSeconds: 784_111_777), "Sun, 06 Nov 1994 08:49:37 GMT")
        XCTAssertEqual(HTTPDate.format(epochSeconds: 0), "Thu, 01 Jan 1970 00:00:00 GMT")
        XCTAssertEqual(HTTPDate.format(epochSeconds: -1), "Wed, 31 Dec 1969 23:59:59 GMT")
        XCTAssertEqual(HTTPDate.format(epochSeconds: 951_782_400), "Tue, 29 Feb 2000 00:00:00 GMT")
    }

    func testMatchesGmtimeAcrossTheRange() {
        var t = -70_000_000_000_000
        let step = 9_876_543_210_987   // arbitrary stride over weekdays, leap years, times of day
        while t < 70_000_000_000_000 {
            XCTAssertEqual(HTTPDate.format(epochSeconds: t), reference(t), "\(t)")
            t += step
        }
        for t in [0, -1, 1, 86_399, 86_400, -86_400, -86_401, 4_107_542_399, 4_107_542_400, -62_167_219_201,
                  253_402_300_800, Int(Int32.max), Int(Int32.min)] {
            XCTAssertEqual(HTTPDate.format(epochSeconds: t), reference(t), "\(t)")
        }
    }

    /// Years 1000...9999 are written in one piece: checked densely, and across both ends of that range.
    func testFourDigitYearsMatchGmtime() {
        // 1000-01-01T00:00:00Z and 10000-01-01T00:00:00Z.
        let first = -30_610_224_000, end = 253_402_300_800
        var t = first
        while t < end {
            XCTAssertEqual(HTTPDate.format(epochSeconds: t), reference(t), "\(t)")
            t += 3_156_000_007   // about a century and a few seconds: every weekday, month and time of day
        }
        var g = 0x2545_F491_4F6C_DD1D as UInt64
        for _ in 0..<20_000 {
            g ^= g << 13; g ^= g >> 7; g ^= g << 17
            let t = first + Int(g % UInt64(end - first))
            XCTAssertEqual(HTTPDate.format(epochSeconds: t), reference(t), "\(t)")
        }
        for t in [first - 1, first, first + 1, end - 1, end, end + 1, 1_798_761_600, 1_798_761_599] {
            XCTAssertEqual(HTTPDate.format(epochSeconds: t), reference(t), "\(t)")
        }
    }

    /// Years that do not fit `tm` (beyond about two billion years): the epoch's text, as `gmtime_r` fails.
    func testYearsBeyondTheCLibrary() {
        for t in [Int.max, Int.min, 67_768_036_191_676_799, 67_768_036_191_676_800, -67_768_040_609_740_800,
                  -67_768_040_609_740_801] {
            XCTAssertEqual(HTTPDate.format(epochSeconds: t), reference(t), "\(t)")
        }
        XCTAssertEqual(HTTPDate.format(epochSeconds: Int.max), "Thu, 01 Jan 1970 00:00:00 GMT")
    }

    func testNowSecondsIsTheWallClock() {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        XCTAssertLessThanOrEqual(abs(HTTPDate.nowSeconds() - Int(spec.tv_sec)), 1)
    }
}
