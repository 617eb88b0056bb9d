extension HTTPDate {
    /// The UNIX time in seconds of an HTTP-date (RFC 9110 5.6.7), in any of the three forms a recipient must
    /// accept: IMF-fixdate ("Sun, 06 Nov 1994 08:49:37 GMT"), RFC 850 ("Sunday, 06-Nov-94 08:49:37 GMT")
    /// and asctime ("Sun Nov  6 08:49:37 1994"). Nil for anything else, including impossible dates. The
    /// weekday is not checked (it adds nothing to the instant).
    public static func parse(_ text: String) -> Int? {
        let tokens = text.split(separator: " ", omittingEmptySubsequences: true)
        let day: Int?, month: Int?, year: Int?, time: Substring
        switch tokens.count {
        case 6 where tokens[0].hasSuffix(",") && tokens[5] == "GMT":
            (day, month, year, time) = (number(tokens[1], digits: 1...2), monthNumber(tokens[2]),
                                        number(tokens[3], digits: 4...4), tokens[4])
        case 4 where tokens[0].hasSuffix(",") && tokens[3] == "GMT":
            let parts = tokens[1].split(separator: "-", omittingEmptySubsequences: false)
            guard parts.count == 3, let twoDigits = number(parts[2], digits: 2...2) else { return nil }
            // Two-digit years: 70-99 are 19xx, the rest 20xx (a date 50 years ahead is read as past).
            (day, month, year, time) = (number(parts[0], digits: 1...2), monthNumber(parts[1]),
                                        twoDigits >= 70 ? 1900 + twoDigits : 2000 + twoDigits, tokens[2])
        case 5:
            (day, month, year, time) = (number(tokens[2], digits: 1...2), monthNumber(tokens[1]),
                                        number(tokens[4], digits: 4...4), tokens[3])
        default:
            return nil
        }
        let clock = time.split(separator: ":", omittingEmptySubsequences: false)
        guard let day, let month, let year, clock.count == 3,
              let hour = number(clock[0], digits: 2...2), let minute = number(clock[1], digits: 2...2),
              let second = number(clock[2], digits: 2...2),
              year >= 1, hour < 24, minute < 60, second <= 60, day >= 1,
              day <= CivilDate.daysInMonth(year: Int64(year), month: month) else { return nil }
        let days = Int(CivilDate(year: Int64(year), month: month, day: day).daysSinceEpoch)
        return days * 86_400 + hour * 3600 + minute * 60 + second
    }

    /// A run of `digits` ASCII digits as a number (small enough never to overflow).
    private static func number(_ text: Substring, digits: ClosedRange<Int>) -> Int? {
        guard digits.contains(text.utf8.count) else { return nil }
        var value = 0
        for byte in text.utf8 {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }

    /// 1...12 for "Jan"..."Dec" (the names are case-sensitive in the grammar).
    private static func monthNumber(_ text: Substring) -> Int? {
        months.firstIndex { $0 == text }.map { $0 + 1 }
    }
}
