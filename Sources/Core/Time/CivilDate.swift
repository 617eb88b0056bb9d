/// Conversion between days since 1970-01-01 and proleptic Gregorian year/month/day, by integer
/// arithmetic on 400-year eras (146,097 days each), valid for every Int64 day count that matters here
/// and independent of time zones, locales and calendars.
struct CivilDate: Equatable {
    var year: Int64
    var month: Int   // 1...12
    var day: Int     // 1...31

    /// The date `days` days after 1970-01-01 (negative before it).
    init(daysSinceEpoch days: Int64) {
        // Shift the epoch to 0000-03-01 so that the leap day falls at the end of each year.
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097                                           // [0, 146096]
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365  // [0, 399]
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)  // [0, 365], from March 1
        let shiftedMonth = (5 * dayOfYear + 2) / 153                                // [0, 11], March = 0
        day = Int(dayOfYear - (153 * shiftedMonth + 2) / 5 + 1)
        month = Int(shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9)
        year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    }

    init(year: Int64, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// Days from 1970-01-01 to this date (the inverse of `init(daysSinceEpoch:)`).
    var daysSinceEpoch: Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400                                               // [0, 399]
        let m = Int64(month)
        let dayOfYear = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + Int64(day) - 1     // [0, 365]
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear // [0, 146096]
        return era * 146_097 + dayOfEra - 719_468
    }

    static func isLeapYear(_ year: Int64) -> Bool {
        year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    }

    static func daysInMonth(year: Int64, month: Int) -> Int {
        switch month {
        case 2: return isLeapYear(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}
