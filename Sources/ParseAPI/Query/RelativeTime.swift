import Core

/// `$relativeTime` strings (spec §7.3): "now", "in <n> <unit> ...", "<n> <unit> ... ago".
enum RelativeTime {
    static let units: [String: Int] = {
        var u: [String: Int] = [:]
        for k in ["yr", "yrs", "year", "years"] { u[k] = 365 * 86_400 }
        for k in ["wk", "wks", "week", "weeks"] { u[k] = 7 * 86_400 }
        for k in ["d", "day", "days"] { u[k] = 86_400 }
        for k in ["hr", "hrs", "hour", "hours"] { u[k] = 3600 }
        for k in ["min", "mins", "minute", "minutes"] { u[k] = 60 }
        for k in ["sec", "secs", "second", "seconds"] { u[k] = 1 }
        return u
    }()

    /// The normalised timestamp the expression denotes, relative to now.
    static func resolve(_ value: JSON, op: String, nowMillis: Int = ParseDate.nowMillis()) throws -> String {
        func bad(_ reason: String) -> ParseError { ParseError(107, "bad $relativeTime (\(op)) value. \(reason)") }
        guard let text = value.stringValue else { throw bad("Time should either start with 'in' or end with 'ago'") }
        var words = text.lowercased().split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        if words == ["now"] { return ParseDate.format(epochMillis: nowMillis) }
        let future = words.first == "in"
        let past = words.last == "ago"
        if future && past { throw bad("Time cannot have both 'in' and 'ago'") }
        if !future && !past { throw bad("Time should either start with 'in' or end with 'ago'") }
        if future { words.removeFirst() } else { words.removeLast() }
        guard words.count % 2 == 0, !words.isEmpty else { throw bad("Invalid time string. Dangling unit or number.") }
        var seconds = 0
        var i = 0
        while i + 1 < words.count {
            guard let n = Int(words[i]), abs(n) < 1_000_000 else { throw bad("'\(words[i])' is not an integer.") }
            guard let unit = units[words[i + 1]] else { throw bad("Invalid interval: '\(words[i + 1])'") }
            seconds += n * unit
            i += 2
        }
        let delta = seconds * 1000 * (future ? 1 : -1)
        return ParseDate.format(epochMillis: nowMillis + delta)
    }
}
