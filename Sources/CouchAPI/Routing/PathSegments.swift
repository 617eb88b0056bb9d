/// One path segment after percent-decoding (spec §1.4, steps 2–4).
struct PathSegment: Sendable, Equatable {
    /// The decoded text; ill-formed UTF-8 appears as U+FFFD (see `invalidBytes`).
    let text: String
    /// The decoded bytes when they are not valid UTF-8 (nil for every well-formed segment): document ids
    /// report that case as `illegal_docid`, everything else as a bad path.
    let invalidBytes: [UInt8]?

    /// A well-formed segment.
    init(_ text: String) {
        self.text = text
        invalidBytes = nil
    }

    init(bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        // A round trip that changes the bytes means some were replaced, so they were not valid UTF-8.
        self.text = text
        invalidBytes = text.utf8.elementsEqual(bytes) ? nil : bytes
    }

    /// The decoded bytes.
    var bytes: [UInt8] { invalidBytes ?? Array(text.utf8) }

    /// The text, or 400 `bad_request` when the bytes were not UTF-8 (§1.4 step 4).
    func validText() throws(CouchError) -> String {
        guard invalidBytes == nil else { throw .badRequest("Invalid UTF-8 in request path") }
        return text
    }
}

/// Splitting and decoding of the raw (still percent-encoded) path below the mount (spec §1.4).
enum PathSegments {
    /// Splits `raw` on `/`, drops empty segments (`//db//doc` is `/db/doc`), and percent-decodes each segment
    /// on its own, so an encoded `%2F` stays inside its segment. `+` is a space when `plusIsSpace`
    /// (CouchDB's default); `%2B` is always `+`. A malformed escape is 400 `bad_request`.
    static func split(_ raw: Substring, plusIsSpace: Bool) throws(CouchError) -> [PathSegment] {
        var segments: [PathSegment] = []
        var start = raw.utf8.startIndex
        let end = raw.utf8.endIndex
        var index = start
        while true {
            if index == end || raw.utf8[index] == UInt8(ascii: "/") {
                if index > start { segments.append(try decode(raw.utf8[start..<index], plusIsSpace: plusIsSpace)) }
                if index == end { break }
                start = raw.utf8.index(after: index)
            }
            index = raw.utf8.index(after: index)
        }
        return segments
    }

    /// One segment. Segments without `%` (and without a `+` that means space) are taken as they are: the
    /// common case costs no scratch buffer.
    static func decode(_ raw: Substring.UTF8View.SubSequence, plusIsSpace: Bool) throws(CouchError) -> PathSegment {
        if !raw.contains(where: { $0 == UInt8(ascii: "%") || (plusIsSpace && $0 == UInt8(ascii: "+")) }) {
            return PathSegment(String(Substring(raw)))
        }
        var out: [UInt8] = []
        out.reserveCapacity(raw.count)
        var iterator = raw.makeIterator()
        while let byte = iterator.next() {
            switch byte {
            case UInt8(ascii: "%"):
                guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                    throw .badRequest("Invalid percent-encoding in request path")
                }
                out.append(high << 4 | low)
            case UInt8(ascii: "+") where plusIsSpace:
                out.append(UInt8(ascii: " "))
            default:
                out.append(byte)
            }
        }
        return PathSegment(bytes: out)
    }

    private static func hexValue(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return c - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
