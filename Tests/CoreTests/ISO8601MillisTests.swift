import XCTest
@testable import Core

/// The millisecond-epoch side of `ISO8601`: the fixed-width form Parse stores and the RFC 3339
/// normalisation its queries and writes use.
final class ISO8601MillisTests: XCTestCase {
    func testFormatEpochMillis() {
        XCTAssertEqual(ISO8601.format(epochMillis: 0), "1970-01-01T00:00:00.000Z")
        XCTAssertEqual(ISO8601.format(epochMillis: 1_700_000_000_123), "2023-11-14T22:13:20.123Z")
        XCTAssertEqual(ISO8601.format(epochMillis: -1), "1969-12-31T23:59:59.999Z")
        XCTAssertEqual(ISO8601.format(epochMillis: 951_782_400_007), "2000-02-29T00:00:00.007Z")
        XCTAssertEqual(ISO8601.format(epochMillis: ISO8601.fourDigitYears.lowerBound), "0000-01-01T00:00:00.000Z")
        XCTAssertEqual(ISO8601.format(epochMillis: ISO8601.fourDigitYears.upperBound), "9999-12-31T23:59:59.999Z")
        // Outside four-digit years: the expanded form, as `toISOString` writes it.
        XCTAssertEqual(ISO8601.format(epochMillis: 253_402_300_800_000), "+010000-01-01T00:00:00.000Z")
        XCTAssertEqual(ISO8601.format(epochMillis: -62_167_219_200_001), "-000001-12-31T23:59:59.999Z")
        XCTAssertEqual(ISO8601.format(epochMillis: Int64.max), "+292278994-08-17T07:12:55.807Z")
        XCTAssertEqual(ISO8601.format(epochMillis: Int64.min), "-292275055-05-16T16:47:04.192Z")
    }

    func testFormatMillisOfDateMatchesEpochMillis() {
        for millis: Int64 in [0, -1, 1_709_208_000_678, -62_135_596_800_000, 253_402_300_800_000] {
            XCTAssertEqual(ISO8601.formatMillis(Date(timeIntervalSince1970: Double(millis) / 1000)),
                           ISO8601.format(epochMillis: millis))
        }
    }

    func testNormalize() {
        XCTAssertEqual(ISO8601.normalize("2024-01-01T00:00:00+02:00"), "2023-12-31T22:00:00.000Z")
        XCTAssertEqual(ISO8601.normalize("2024-01-01t00:00:00.123456z"), "2024-01-01T00:00:00.123Z")
        XCTAssertEqual(ISO8601.normalize("2024-02-29T23:59:59.5-00:30"), "2024-03-01T00:29:59.500Z")
        XCTAssertEqual(ISO8601.normalize("0000-01-01T00:00:00Z"), "0000-01-01T00:00:00.000Z")
        XCTAssertEqual(ISO8601.normalize("9999-12-31T23:59:59.999999Z"), "9999-12-31T23:59:59.999Z")
        XCTAssertEqual(ISO8601.epochMillis(rfc3339: "1970-01-01T00:00:01.001+00:00"), 1001)
        XCTAssertEqual(ISO8601.epochMillis(rfc3339: "1969-12-31T23:59:59.999Z"), -1)
    }

    func testNormalizeRejects() {
        let fraction = String(repeating: "1", count: 50)
        for bad in ["", "2024-01-01", "2024-01-01T00:00:00", "2024-01-01T00:00:00+0200", "2024-01-01T00:00:00+02",
                    "2024-02-30T00:00:00Z", "2024-01-01T24:00:00Z", "2024-01-01T00:00:00.Z", "2024-01-01 00:00:00Z",
                    "2024-01-01T00:00:00Zx", "2024-01-01T00:00:00+24:00",
                    // Shifted to UTC, these leave the four-digit years.
                    "0000-01-01T00:00:00+00:01", "9999-12-31T23:59:59-00:01",
                    // Longer than 64 bytes, though well formed.
                    "2024-01-01T00:00:00.\(fraction)Z"] {
            XCTAssertNil(ISO8601.normalize(bad), bad)
            XCTAssertNil(ISO8601.epochMillis(rfc3339: bad), bad)
        }
    }

    /// `parse` is the lenient reader (`±HHMM` offsets, any length); `normalize` keeps Parse's stricter rule.
    func testCompactOffsetOnlyWhereAllowed() {
        XCTAssertNotNil(ISO8601.parse("2024-02-29T14:30:00+0230"))
        XCTAssertNil(ISO8601.normalize("2024-02-29T14:30:00+0230"))
        XCTAssertNotNil(ISO8601.parse("2024-01-01T00:00:00.\(String(repeating: "1", count: 40))Z"))
    }

    func testNormalizeRoundTripsFormattedInstants() {
        var t = ISO8601.fourDigitYears.lowerBound
        let step: Int64 = 3_333_333_333_337   // arbitrary stride hitting varied dates and milliseconds
        while t <= ISO8601.fourDigitYears.upperBound {
            let text = ISO8601.format(epochMillis: t)
            XCTAssertEqual(text.utf8.count, 24)
            XCTAssertEqual(ISO8601.epochMillis(rfc3339: text), t)
            XCTAssertEqual(ISO8601.normalize(text), text)
            t += step
        }
    }
}
