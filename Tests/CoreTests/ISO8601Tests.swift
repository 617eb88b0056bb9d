import XCTest
@testable import Core

final class ISO8601Tests: XCTestCase {
    private func date(_ seconds: Double) -> Date { Date(timeIntervalSince1970: seconds) }

    func testFormatKnownInstants() {
        XCTAssertEqual(ISO8601.formatMillis(date(0)), "1970-01-01T00:00:00.000Z")
        XCTAssertEqual(ISO8601.formatMillis(date(-1)), "1969-12-31T23:59:59.000Z")
        XCTAssertEqual(ISO8601.formatMillis(date(-0.001)), "1969-12-31T23:59:59.999Z")
        XCTAssertEqual(ISO8601.formatMillis(date(2_147_483_647)), "2038-01-19T03:14:07.000Z")
        XCTAssertEqual(ISO8601.formatMillis(date(951_782_400)), "2000-02-29T00:00:00.000Z")
        XCTAssertEqual(ISO8601.formatMillis(date(-2_203_891_200)), "1900-03-01T00:00:00.000Z")
        XCTAssertEqual(ISO8601.formatMillis(date(4_107_542_400 - 86_400)), "2100-02-28T00:00:00.000Z")
        XCTAssertEqual(ISO8601.formatMillis(date(253_402_300_799.999)), "9999-12-31T23:59:59.999Z")
        XCTAssertEqual(ISO8601.formatMillis(date(253_402_300_800)), "+010000-01-01T00:00:00.000Z")
        XCTAssertEqual(ISO8601.formatMillis(date(-62_135_596_800)), "0001-01-01T00:00:00.000Z")
        XCTAssertEqual(ISO8601.formatMillis(date(1_709_208_000.678)), "2024-02-29T12:00:00.678Z")
    }

    func testParseForms() {
        XCTAssertEqual(ISO8601.parse("2024-02-29T12:00:00Z"), date(1_709_208_000))
        XCTAssertEqual(ISO8601.parse("2024-02-29T12:00:00.5Z"), date(1_709_208_000.5))
        XCTAssertEqual(ISO8601.parse("2024-02-29t12:00:00z"), date(1_709_208_000))
        XCTAssertEqual(ISO8601.parse("2024-02-29T14:30:00+02:30"), date(1_709_208_000))
        XCTAssertEqual(ISO8601.parse("2024-02-29T14:30:00+0230"), date(1_709_208_000))
        XCTAssertEqual(ISO8601.parse("2024-02-29T07:00:00-05:00"), date(1_709_208_000))
        XCTAssertEqual(ISO8601.parse("2024-03-01T00:00:00+12:00"), date(1_709_208_000))
        XCTAssertEqual(ISO8601.parse("1970-01-01T00:00:00.000Z"), date(0))
        XCTAssertEqual(ISO8601.parse("9999-12-31T23:59:59Z"), date(253_402_300_799))
        XCTAssertEqual(ISO8601.parse("2000-02-29T00:00:00Z"), date(951_782_400))
        let long = ISO8601.parse("2024-02-29T12:00:00.123456789123Z")
        XCTAssertEqual(long?.timeIntervalSince1970 ?? 0, 1_709_208_000.123456789, accuracy: 1e-6)
    }

    func testParseRejects() {
        for bad in ["", "2024-02-29", "2024-02-29T12:00Z", "2024-02-29T12:00:00", "2024-02-30T00:00:00Z",
                    "2023-02-29T00:00:00Z", "1900-02-29T00:00:00Z", "2024-13-01T00:00:00Z", "2024-00-10T00:00:00Z",
                    "2024-01-01T24:00:00Z", "2024-01-01T00:60:00Z", "2024-01-01T00:00:60Z", "2024-01-01T00:00:00.Z",
                    "2024-01-01T00:00:00+24:00", "2024-01-01T00:00:00+01", "2024-01-01T00:00:00Zjunk",
                    "24-01-01T00:00:00Z", "2024-1-01T00:00:00Z", "２０２４-01-01T00:00:00Z", "2024-01-01 00:00:00Z"] {
            XCTAssertNil(ISO8601.parse(bad), bad)
        }
    }

    func testRoundTripMillisecondsAcrossCenturies() {
        var t: Int64 = -62_135_596_800_000
        let end: Int64 = 253_402_300_799_999
        let step: Int64 = 7_777_777_777_777   // arbitrary stride hitting varied dates and milliseconds
        while t <= end {
            let d = date(Double(t) / 1000)
            let text = ISO8601.formatMillis(d)
            XCTAssertEqual(ISO8601.parse(text).map(ISO8601.formatMillis), text)
            XCTAssertEqual((ISO8601.parse(text)?.timeIntervalSince1970 ?? 0) * 1000, Double(t), accuracy: 0.5)
            t += step
        }
    }

    func testCivilDateMatchesDayCountsForEveryDayOfFourCenturies() {
        // Walk day by day from 1600-01-01 and check the calendar advances exactly as it should.
        var expected = CivilDate(year: 1600, month: 1, day: 1)
        let start = expected.daysSinceEpoch
        for days in start..<(start + 146_097) {
            let civil = CivilDate(daysSinceEpoch: days)
            XCTAssertEqual(civil, expected)
            XCTAssertEqual(civil.daysSinceEpoch, days)
            if expected.day < CivilDate.daysInMonth(year: expected.year, month: expected.month) {
                expected.day += 1
            } else if expected.month < 12 {
                expected = CivilDate(year: expected.year, month: expected.month + 1, day: 1)
            } else {
                expected = CivilDate(year: expected.year + 1, month: 1, day: 1)
            }
        }
        XCTAssertEqual(expected, CivilDate(year: 2000, month: 1, day: 1))
    }
}
