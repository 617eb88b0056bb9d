import Core

/// One decoded name/value pair before the lists of a request are assembled.
struct RawParameter {
    /// The base name (brackets of a list form removed).
    var name: String
    /// How the name denoted its list element.
    var form: ParameterName.Form
    /// The decoded value.
    var value: String
    /// Query string or body.
    var source: ParameterSource
}

/// Splits and decodes `application/x-www-form-urlencoded` text (query strings and bodies alike, §2.2).
///
/// Split on `&`, then on the first `=`; percent-decode names and values and read `+` as a space. Android
/// (android-async-http) writes spaces as `+` in query strings too, which is why the form rule applies to
/// both sources (Foundation's `URLComponents.queryItems` would leave `+` alone and break its signatures).
/// A pair without `=` has an empty value; empty pairs (`&&`) are skipped.
enum URLEncodedScanner {
    /// Decodes every pair of `bytes` into `out`, counting each against `limits.maxParameters` through
    /// `count` (shared with the other source of the request).
    static func scan(_ bytes: [UInt8], source: ParameterSource, limits: ParameterLimits,
                     count: inout Int, into out: inout [RawParameter]) throws(ParameterError) {
        var start = 0
        let end = bytes.count
        while start < end {
            // Searched on slices (one bounds check per search, not one per byte).
            let ampersand = bytes[start..<end].firstIndex(of: UInt8(ascii: "&")) ?? end
            if ampersand > start {
                count += 1
                guard count <= limits.maxParameters else { throw .tooManyParameters(limit: limits.maxParameters) }
                let equals = bytes[start..<ampersand].firstIndex(of: UInt8(ascii: "=")) ?? ampersand
                let name = try decode(bytes, start, equals, source: source, pairStart: start,
                                      limit: limits.maxNameBytes) { .nameTooLong(limit: $0) }
                let (base, form) = ParameterName.split(name)
                var value = ""
                if equals < ampersand {
                    value = try decode(bytes, equals + 1, ampersand, source: source, pairStart: start,
                                       limit: limits.maxValueBytes) { .valueTooLong(name: base, limit: $0) }
                }
                out.append(RawParameter(name: base, form: form, value: value, source: source))
            }
            start = ampersand + 1
        }
    }

    /// Percent-decodes `bytes[start..<end]` (with `+` as space) into a String of at most `limit` bytes.
    /// The raw length is checked first so that an oversized field is refused before it is copied: every
    /// decoded byte comes from at most three raw ones.
    static func decode(_ bytes: [UInt8], _ start: Int, _ end: Int, source: ParameterSource, pairStart: Int,
                       limit: Int, tooLong: (Int) -> ParameterError) throws(ParameterError) -> String {
        let rawCount = end - start
        if rawCount / 3 > limit { throw tooLong(limit) }
        var needsWork = false
        var ascii = true
        for b in bytes[start..<end] {
            if b == UInt8(ascii: "%") || b == UInt8(ascii: "+") { needsWork = true }
            if b >= 0x80 { ascii = false }
        }
        if !needsWork {
            // The common case (names, keys, nonces, numbers): no copy beyond the String itself.
            guard rawCount <= limit else { throw tooLong(limit) }
            if ascii { return String(decoding: bytes[start..<end], as: UTF8.self) }
            guard let text = String(validating: bytes[start..<end], as: UTF8.self) else {
                throw .invalidUTF8(source: source, offset: pairStart)
            }
            return text
        }
        // Decoded into temporary memory (on the stack for the usual sizes), then made a String once.
        return try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(1, rawCount)) { out throws(ParameterError) -> String in
            var written = 0
            var high: UInt8 = 0
            var i = start
            while i < end {
                let b = bytes[i]
                let decoded: UInt8
                if b == UInt8(ascii: "%") {
                    guard i + 2 < end, let h = Hex.value(bytes[i + 1]), let l = Hex.value(bytes[i + 2]) else {
                        throw .malformedPercentEscape(source: source, offset: i)
                    }
                    decoded = h << 4 | l
                    i += 3
                } else {
                    decoded = b == UInt8(ascii: "+") ? 0x20 : b
                    i += 1
                }
                // Never more decoded bytes than raw ones; checked all the same.
                guard written < out.count else { throw tooLong(limit) }
                out[written] = decoded
                written += 1
                high |= decoded
            }
            guard written <= limit else { throw tooLong(limit) }
            let result = UnsafeBufferPointer(rebasing: out[0..<written])
            // ASCII needs no validation (the common case: Base64 signatures, BQL texts).
            if high < 0x80 { return String(decoding: result, as: UTF8.self) }
            guard let text = String(validating: result, as: UTF8.self) else {
                throw .invalidUTF8(source: source, offset: pairStart)
            }
            return text
        }
    }
}
