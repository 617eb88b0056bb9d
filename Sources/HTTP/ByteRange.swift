/// What to send for a `Range` request against a resource of known length.
public enum ByteRangeResult: Sendable, Equatable {
    /// Ignore the header and send the whole resource (200): no header, a unit other than bytes, several
    /// ranges, or a header that does not parse (RFC 9110 14.2 lets a server ignore an invalid Range).
    case full
    /// Send `length` bytes starting at `offset` (206 with Content-Range).
    case partial(offset: Int, length: Int)
    /// The range starts past the end of the resource (416 with `Content-Range: bytes */length`).
    case unsatisfiable
}

/// `Range: bytes=...` against a resource length: single range only (multi-range answered as full 200).
public enum ByteRange {
    /// Interprets `bytes=first-last`, `bytes=first-` or `bytes=-suffixLength` against `length`.
    /// A last position past the end is clamped to the end; a suffix longer than the resource selects all.
    public static func parse(_ header: String, length: Int) -> ByteRangeResult {
        guard length >= 0 else { return .full }
        var utf8 = Substring(header).utf8
        while let first = utf8.first, ByteClass.isOWS(first) { utf8 = utf8.dropFirst() }
        let unit = Array("bytes=".utf8)
        guard utf8.count >= unit.count,
              zip(utf8.prefix(unit.count), unit).allSatisfy({ ByteClass.lower($0) == $1 }) else { return .full }
        let specs = utf8.dropFirst(unit.count)
            .split(separator: 0x2C, omittingEmptySubsequences: false)
            .map { trimOWS($0) }
            .filter { !$0.isEmpty }
        guard specs.count == 1, let spec = specs.first,
              let dash = spec.firstIndex(of: 0x2D) else { return .full }
        let firstText = spec[spec.startIndex..<dash]
        let lastText = spec[spec.index(after: dash)...]

        if firstText.isEmpty {
            guard let suffix = number(lastText) else { return .full }
            guard suffix > 0, length > 0 else { return .unsatisfiable }
            let count = min(suffix, length)
            return .partial(offset: length - count, length: count)
        }
        guard let first = number(firstText) else { return .full }
        var last = length - 1
        if !lastText.isEmpty {
            guard let value = number(lastText) else { return .full }
            // last < first is syntactically invalid, so the whole header is ignored.
            guard value >= first else { return .full }
            last = min(value, length - 1)
        }
        guard first < length else { return .unsatisfiable }
        return .partial(offset: first, length: last - first + 1)
    }

    /// 1*DIGIT, saturating at Int.max (a position that large is past any resource, which is the answer
    /// it deserves, rather than a parse error or an overflow).
    private static func number(_ digits: Substring.UTF8View.SubSequence) -> Int? {
        guard !digits.isEmpty else { return nil }
        var value = 0
        for b in digits {
            guard b >= 0x30, b <= 0x39 else { return nil }
            let (times, o1) = value.multipliedReportingOverflow(by: 10)
            let (sum, o2) = times.addingReportingOverflow(Int(b - 0x30))
            value = (o1 || o2) ? Int.max : sum
        }
        return value
    }

    private static func trimOWS(_ s: Substring.UTF8View.SubSequence) -> Substring.UTF8View.SubSequence {
        var s = s
        while let b = s.first, ByteClass.isOWS(b) { s = s.dropFirst() }
        while let b = s.last, ByteClass.isOWS(b) { s = s.dropLast() }
        return s
    }
}
