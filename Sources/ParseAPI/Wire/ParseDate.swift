import Core

/// Parse's timestamp form `yyyy-MM-dd'T'HH:mm:ss.SSS'Z'`, written and read by Core's `ISO8601`.
///
/// Stored dates use exactly this fixed-width text, so string order equals time order and the query
/// compiler can compare them as text (spec §4.5, §7.12). Only four-digit years have that form: an
/// instant outside them formats as the empty string and does not normalise.
enum ParseDate {
    /// Normalises an RFC 3339 date-time (`T`/`t`, fraction optional, `Z`/`z` or `±HH:MM`) to UTC with
    /// millisecond precision (extra fractional digits truncated). Nil for anything else.
    static func normalize(_ text: String) -> String? { ISO8601.normalize(text) }

    /// The fixed-width text of an instant given in milliseconds since 1970 ("" outside years 0000-9999).
    static func format(epochMillis: Int) -> String {
        let millis = Int64(epochMillis)
        return ISO8601.fourDigitYears.contains(millis) ? ISO8601.format(epochMillis: millis) : ""
    }

    /// The current time in the fixed-width form.
    static func now() -> String { format(epochMillis: nowMillis()) }

    /// Milliseconds since 1970 of the wall clock.
    static func nowMillis() -> Int { Int(WallClock.nowMillis()) }
}
