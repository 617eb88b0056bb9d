import Core
import HTTP

/// `Range` on an attachment, as CouchDB reads it (spec §3.5.2, P2): mochiweb's `parse_range_request` then
/// chttpd's `parse_ranges`. A header that does not parse, or whose first range (at any step) is `0-`, means
/// the whole attachment (200); a range ending past the end is clamped to it; a range that then ends before it
/// starts makes the whole request unsatisfiable (416); a suffix `-n` is the last n bytes.
enum AttachmentRanges {
    /// Most ranges answered as `multipart/byteranges` (§3.5.2: "up to 10"); more get the whole attachment.
    static let maxRanges = 10

    static let unsatisfiable = CouchError(status: 416, error: "requested_range_not_satisfiable",
                                          reason: "Requested range not satisfiable")

    /// The inclusive byte ranges `header` asks for against `length` bytes, in request order; nil for the whole
    /// attachment. Throws the 416 error for an unsatisfiable range.
    static func parse(_ header: String?, length: Int) throws(CouchError) -> [ClosedRange<Int>]? {
        guard let header, let specs = specs(header) else { return nil }
        var ranges: [ClosedRange<Int>] = []
        for (first, last) in specs {
            var from: Int
            var to: Int
            switch (first, last) {
            case (0?, nil): return nil                       // `0-`: the whole attachment, as CouchDB answers
            case (let a?, let b?): from = a; to = b
            case (let a?, nil): from = a; to = length - 1
            case (nil, let b?): from = max(0, length - b); to = length - 1
            case (nil, nil): return nil
            }
            if to >= length { to = length - 1 }
            guard from <= to else { throw unsatisfiable }
            ranges.append(from...to)
        }
        return ranges.isEmpty ? nil : ranges
    }

    /// mochiweb's reading of `bytes=a-b,c-,-d`: nil when the header does not parse (then ignored).
    static func specs(_ header: String) -> [(Int?, Int?)]? {
        let text = header.trimmingSpaces()
        guard text.lowercased().hasPrefix("bytes=") else { return nil }
        var result: [(Int?, Int?)] = []
        for part in text.dropFirst(6).split(separator: ",") {   // empty items skipped, as `string:tokens` does
            let spec = part.trimmingSpacesAndTabs()
            guard let dash = spec.firstIndex(of: "-") else { return nil }
            let a = spec[..<dash], b = spec[spec.index(after: dash)...]
            let first = a.isEmpty ? nil : number(a)
            let last = b.isEmpty ? nil : number(b)
            if !a.isEmpty, first == nil { return nil }
            if !b.isEmpty, last == nil { return nil }
            if first == nil, last == nil { return nil }
            result.append((first, last))
        }
        return result
    }

    /// Decimal digits, saturating (a position that large is past any attachment).
    private static func number(_ digits: Substring) -> Int? {
        guard !digits.isEmpty else { return nil }
        var value = 0
        for b in digits.utf8 {
            guard b >= 0x30, b <= 0x39 else { return nil }
            let (times, o1) = value.multipliedReportingOverflow(by: 10)
            let (sum, o2) = times.addingReportingOverflow(Int(b - 0x30))
            value = (o1 || o2) ? Int.max : sum
        }
        return value
    }

    /// `bytes a-b/len`.
    static func contentRange(_ range: ClosedRange<Int>, length: Int) -> String {
        "bytes \(range.lowerBound)-\(range.upperBound)/\(length)"
    }

    /// A `multipart/byteranges` body laid out as CouchDB's `send_ranges_multipart` writes it: `--B`, then per
    /// range `\r\nContent-Type: …\r\nContent-Range: …\r\n\r\n{bytes}\r\n--B`, then `--`. `read` gives a range's bytes.
    static func multipart(_ ranges: [ClosedRange<Int>], length: Int, contentType: String, boundary: String,
                          read: (ClosedRange<Int>) throws -> [UInt8]) rethrows -> [UInt8] {
        var out = Array("--\(boundary)".utf8)
        for range in ranges {
            out += Array("\r\nContent-Type: \(contentType)\r\nContent-Range: \(contentRange(range, length: length))\r\n\r\n".utf8)
            out += try read(range)
            out += Array("\r\n--\(boundary)".utf8)
        }
        out += Array("--".utf8)
        return out
    }
}

/// `Accept-Encoding` as mochiweb's `accepted_encodings` reads it for CouchDB's attachment GET: gzip may be sent
/// when `gzip` (or `x-gzip`) or `*` is listed with a non-zero quality and gzip is not refused with `q=0`. An
/// absent header accepts identity only.
enum AcceptEncoding {
    static func allowsGzip(_ header: String?) -> Bool {
        guard let header else { return false }
        var gzip: Double?
        var any: Double?
        for entry in header.split(separator: ",") {
            let parts = entry.split(separator: ";")
            guard let coding = parts.first?.trimmingSpacesAndTabs().lowercased(), !coding.isEmpty else { continue }
            var quality = 1.0
            for parameter in parts.dropFirst() {
                let pair = parameter.trimmingSpacesAndTabs().lowercased()
                if pair.hasPrefix("q=") { quality = Double(pair.dropFirst(2)) ?? 0 }
            }
            if coding == "gzip" || coding == "x-gzip" { gzip = max(gzip ?? 0, quality) } else if coding == "*" { any = quality }
        }
        if let gzip { return gzip > 0 }
        return (any ?? 0) > 0
    }
}
