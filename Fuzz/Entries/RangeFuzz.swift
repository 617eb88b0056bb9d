import HTTP
@testable import CouchAPI

/// Harness for `Range` headers: the HTTP layer's single-range reading (`ByteRange`, file and blob downloads)
/// and CouchDB's multi-range reading of attachments (`AttachmentRanges`). The first line of the input is the
/// resource's length in decimal (the input's own length when it does not parse), the rest the header.
enum RangeFuzz {
    static func ranges(_ input: [UInt8]) -> FuzzOutcome {
        let (lengthLine, headerBytes) = FuzzInput.split(input, at: UInt8(ascii: "\n"))
        let length = Int(String(decoding: lengthLine, as: UTF8.self)) ?? input.count
        let header = String(decoding: headerBytes, as: UTF8.self)
        let outcomes = [single(header, length: length), attachment(header, length: max(0, length))]
        return FuzzOutcome.all(outcomes)
    }

    /// A partial answer lies inside the resource and is never empty.
    private static func single(_ header: String, length: Int) -> FuzzOutcome {
        switch ByteRange.parse(header, length: length) {
        case .full:
            return .refused("whole resource")
        case .unsatisfiable:
            return .refused("unsatisfiable")
        case .partial(let offset, let count):
            let (end, overflow) = offset.addingReportingOverflow(count)
            guard offset >= 0, count >= 1, !overflow, end <= length else {
                return .violated("partial \(offset)+\(count) outside \(length) bytes")
            }
            return .accepted
        }
    }

    /// Every range lies inside the attachment, in request order as parsed, and the `multipart/byteranges`
    /// body of a few of them carries exactly their bytes.
    private static func attachment(_ header: String, length: Int) -> FuzzOutcome {
        let ranges: [ClosedRange<Int>]?
        do throws(CouchError) {
            ranges = try AttachmentRanges.parse(header, length: length)
        } catch {
            guard error.status == 416 else { return .violated("unexpected refusal \(error)") }
            return .refused("416")
        }
        guard let ranges else { return .refused("whole attachment") }
        for range in ranges where range.lowerBound < 0 || range.upperBound >= length {
            return .violated("range \(range) outside \(length) bytes")
        }
        guard let specs = AttachmentRanges.specs(header), specs.count == ranges.count else {
            return .violated("\(ranges.count) ranges from a header that does not read as as many")
        }
        // Bodies are assembled only for small attachments: the bytes are made up here.
        guard length <= 4096, ranges.count <= AttachmentRanges.maxRanges else { return .accepted }
        let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0) }
        let body = AttachmentRanges.multipart(ranges, length: length, contentType: "text/plain", boundary: "b",
                                              read: { Array(bytes[$0]) })
        // Each part, in request order: its Content-Range, a blank line, exactly the range's bytes, the next boundary.
        var cursor = body.startIndex
        for range in ranges {
            let part = Array("Content-Range: \(AttachmentRanges.contentRange(range, length: length))\r\n\r\n".utf8)
                + Array(bytes[range]) + Array("\r\n--b".utf8)
            guard let found = body[cursor...].firstRange(of: part) else {
                return .violated("the multipart body lacks the part of \(range), in order")
            }
            cursor = found.upperBound
        }
        return .accepted
    }
}
