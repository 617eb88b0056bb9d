import Core

/// Parsers for field values in their request encoding (§4.2). Commands validate `set-` values with
/// them, BQL binds parameters with them, and the wire encoder turns stored values (kept in request
/// encoding, §4.3) into JSON with them, so all three agree on what a value means.
public enum FieldValues {
    /// A `#n` value: `^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$` and finite. Accepts what the SDKs send:
    /// `3.5`, `100`, `-2`, Android's `1.0E10`, iOS's `%f` forms.
    public static func number(_ text: String) -> Double? {
        let bytes = Array(text.utf8)
        var i = 0
        var canonical: [UInt8] = []
        canonical.reserveCapacity(bytes.count + 2)
        if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") {
            if bytes[i] == UInt8(ascii: "-") { canonical.append(UInt8(ascii: "-")) }
            i += 1
        }
        let integerStart = i
        while i < bytes.count, isDigit(bytes[i]) { i += 1 }
        let integerDigits = bytes[integerStart..<i]
        var fractionDigits: ArraySlice<UInt8> = []
        if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
            i += 1
            let fractionStart = i
            while i < bytes.count, isDigit(bytes[i]) { i += 1 }
            fractionDigits = bytes[fractionStart..<i]
        }
        // `5.` and `.5` are numbers, `.` alone is not.
        guard !integerDigits.isEmpty || !fractionDigits.isEmpty else { return nil }
        canonical.append(contentsOf: integerDigits.isEmpty ? [UInt8(ascii: "0")] : Array(integerDigits))
        if !fractionDigits.isEmpty {
            canonical.append(UInt8(ascii: "."))
            canonical.append(contentsOf: fractionDigits)
        }
        if i < bytes.count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
            canonical.append(UInt8(ascii: "e"))
            i += 1
            if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") {
                canonical.append(bytes[i])
                i += 1
            }
            let exponentStart = i
            while i < bytes.count, isDigit(bytes[i]) { i += 1 }
            guard i > exponentStart else { return nil }
            canonical.append(contentsOf: bytes[exponentStart..<i])
        }
        guard i == bytes.count, let value = Double(String(decoding: canonical, as: UTF8.self)), value.isFinite else {
            return nil
        }
        return value
    }

    /// A `#n` value as the JSON number it is answered as: integral values without a decimal point (`1`,
    /// never `1.0`, which Android would turn into a `/1.0` download URL), others in the shortest form
    /// that reads back as the same double.
    public static func numberJSON(_ text: String) -> JSONNumber? {
        number(text).flatMap { JSONNumber($0) }
    }

    /// Largest accepted `#d` magnitude: the ECMAScript date range, ±8.64e15 ms.
    public static let maxDate: Int64 = 8_640_000_000_000_000

    /// A `#d` value: milliseconds since the epoch. A decimal is truncated toward zero (JS sends floats);
    /// outside ±8.64e15 is refused.
    public static func date(_ text: String) -> Int64? {
        guard let value = number(text), value.magnitude <= Double(maxDate) else { return nil }
        return Int64(value.rounded(.towardZero))
    }

    /// A `#b` value: `1`, `0`, `true` or `false` in any letter case (iOS and Android send `1`/`0`).
    public static func boolean(_ text: String) -> Bool? {
        switch text.lowercased() {
        case "1", "true": return true
        case "0", "false": return false
        default: return nil
        }
    }

    /// A `#c` value as `YYYY-MM-DD` with ASCII digits, or nil unless it is a valid calendar date. Any
    /// Unicode decimal digits are accepted and normalised: Android formats days with the device locale,
    /// which gives Arabic-Indic or other digits in some locales.
    public static func day(_ text: String) -> String? {
        let scalars = Array(text.unicodeScalars)
        guard scalars.count == 10, scalars[4] == "-", scalars[7] == "-" else { return nil }
        var digits: [Int] = []
        for (i, scalar) in scalars.enumerated() where i != 4 && i != 7 {
            guard scalar.properties.numericType == .decimal, let value = scalar.properties.numericValue,
                  value >= 0, value <= 9 else { return nil }
            digits.append(Int(value))
        }
        let year = digits[0] * 1000 + digits[1] * 100 + digits[2] * 10 + digits[3]
        let month = digits[4] * 10 + digits[5]
        let dayOfMonth = digits[6] * 10 + digits[7]
        guard month >= 1, month <= 12, dayOfMonth >= 1, dayOfMonth <= daysInMonth(year: year, month: month) else {
            return nil
        }
        let ascii = digits.map { UInt8(ascii: "0") + UInt8($0) }
        return String(decoding: ascii[0..<4] + [UInt8(ascii: "-")] + ascii[4..<6] + [UInt8(ascii: "-")] + ascii[6..<8],
                      as: UTF8.self)
    }

    /// Deepest nesting accepted in a `#j` value (§2.5).
    public static let maxJSONDepth = 32

    /// A `#j` value: the JSON text parsed (depth at most 32); answered embedded, not as a string.
    public static func json(_ text: String) -> JSON? {
        try? JSONParser.parse(text, options: JSONParseOptions(maxDepth: maxJSONDepth))
    }

    /// A `#j` value sent in a request: as `json(_:)`, under the request limits on values and string bytes
    /// (`JSONRequestLimits`) that every JSON body obeys. `json(_:)` reads stored values, without them.
    public static func requestJSON(_ text: String) -> JSON? {
        var options = JSONParseOptions(maxDepth: maxJSONDepth)
        JSONRequestLimits.apply(to: &options)
        return try? JSONParser.parse(text, options: options)
    }

    static func isDigit(_ b: UInt8) -> Bool { b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") }

    /// Days in `month` of `year` in the proleptic Gregorian calendar.
    static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}
