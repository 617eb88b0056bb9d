import Core

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
    ///
    /// Works on the path's contiguous bytes: a string index walk cost several times as much, and every
    /// request passes through here.
    static func split(_ raw: Substring, plusIsSpace: Bool) throws(CouchError) -> [PathSegment] {
        var raw = raw
        let result = raw.withUTF8 { bytes -> Result<[PathSegment], CouchError> in
            var segments: [PathSegment] = []
            segments.reserveCapacity(4)
            var start = 0
            var needsDecoding = false
            for index in 0...bytes.count {
                let byte = index < bytes.count ? bytes[index] : UInt8(ascii: "/")
                if byte == UInt8(ascii: "/") {
                    if index > start {
                        let slice = UnsafeBufferPointer(rebasing: bytes[start..<index])
                        if needsDecoding {
                            do throws(CouchError) {
                                segments.append(try decode(slice, plusIsSpace: plusIsSpace))
                            } catch {
                                return .failure(error)
                            }
                        } else {
                            segments.append(PathSegment(String(decoding: slice, as: UTF8.self)))
                        }
                    }
                    start = index + 1
                    needsDecoding = false
                } else if byte == UInt8(ascii: "%") || (plusIsSpace && byte == UInt8(ascii: "+")) {
                    needsDecoding = true
                }
            }
            return .success(segments)
        }
        return try result.get()
    }

    /// Decodes one segment's `%XX` escapes (and `+` when it means space).
    static func decode(_ raw: UnsafeBufferPointer<UInt8>, plusIsSpace: Bool) throws(CouchError) -> PathSegment {
        var out: [UInt8] = []
        out.reserveCapacity(raw.count)
        var index = 0
        while index < raw.count {
            let byte = raw[index]
            switch byte {
            case UInt8(ascii: "%"):
                guard index + 2 < raw.count, let high = Hex.value(raw[index + 1]), let low = Hex.value(raw[index + 2]) else {
                    throw .badRequest("Invalid percent-encoding in request path")
                }
                out.append(high << 4 | low)
                index += 3
                continue
            case UInt8(ascii: "+") where plusIsSpace:
                out.append(UInt8(ascii: " "))
            default:
                out.append(byte)
            }
            index += 1
        }
        return PathSegment(bytes: out)
    }

    /// Decodes a segment given as text (the id part of a `Destination` header).
    static func decode(_ text: String, plusIsSpace: Bool) throws(CouchError) -> PathSegment {
        var text = text
        let result = text.withUTF8 { bytes in
            Result { () throws(CouchError) in try decode(bytes, plusIsSpace: plusIsSpace) }
        }
        return try result.get()
    }
}
