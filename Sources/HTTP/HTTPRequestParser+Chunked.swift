import Core

extension HTTPRequestParser {
    /// Advances through a chunked body from `pos`; returns the new position. Stops when more bytes are
    /// needed or after the `.end` of the body (state back to `.head`).
    mutating func stepChunked(_ buf: UnsafeRawBufferPointer, from start: Int,
                              into events: inout [ParseEvent]) throws(HTTPError) -> Int {
        var pos = start
        while true {
            switch state {
            case .chunkSize:
                let searchEnd = min(buf.count, pos + Self.maxChunkLine + 2)
                guard let lf = buf.firstIndex(of: ByteClass.lf, from: pos, to: searchEnd) else {
                    if buf.count - pos > Self.maxChunkLine + 1 { throw .badRequest("chunk size line too long") }
                    return pos
                }
                guard lf > pos, buf[lf - 1] == ByteClass.cr else { throw .badRequest("chunk line not terminated by CRLF") }
                let size = try Self.parseChunkSize(buf, start: pos, end: lf - 1)
                pos = lf + 1
                if size == 0 {
                    state = .trailers(bytes: 0)
                } else {
                    guard size <= bodyLimit - bodyReceived else { throw .payloadTooLarge }
                    state = .chunkData(remaining: size)
                }
            case .chunkData(let remaining):
                let take = min(remaining, buf.count - pos)
                guard take > 0 else { return pos }
                emitBody(buf, from: pos, count: take, into: &events)
                pos += take
                bodyReceived += take
                state = take == remaining ? .chunkDataEnd : .chunkData(remaining: remaining - take)
            case .chunkDataEnd:
                guard buf.count - pos >= 2 else {
                    if pos < buf.count, buf[pos] != ByteClass.cr { throw .badRequest("chunk data not followed by CRLF") }
                    return pos
                }
                guard buf[pos] == ByteClass.cr, buf[pos + 1] == ByteClass.lf else {
                    throw .badRequest("chunk data not followed by CRLF")
                }
                pos += 2
                state = .chunkSize
            case .trailers(let bytes):
                guard let lf = buf.firstIndex(of: ByteClass.lf, from: pos, to: buf.count) else {
                    if bytes + (buf.count - pos) > limits.maxHeaderBytes + 2 { throw .headerFieldsTooLarge }
                    return pos
                }
                guard lf > pos, buf[lf - 1] == ByteClass.cr else { throw .badRequest("trailer not terminated by CRLF") }
                if lf - 1 == pos {
                    pos = lf + 1
                    events.append(.end)
                    state = .head
                    return pos
                }
                // Trailer fields are validated like header fields, then dropped: nothing downstream reads them.
                _ = try parseFieldLine(buf, start: pos, end: lf - 1)
                let total = bytes + (lf + 1 - pos)
                guard total <= limits.maxHeaderBytes else { throw .headerFieldsTooLarge }
                pos = lf + 1
                state = .trailers(bytes: total)
            default:
                return pos
            }
        }
    }

    /// `1*HEXDIG [ BWS ";" extensions ]`; extensions are skipped but may not hold control bytes.
    static func parseChunkSize(_ buf: UnsafeRawBufferPointer, start: Int, end: Int) throws(HTTPError) -> Int {
        var index = start
        var size = 0
        while index < end, let digit = Hex.value(buf[index]) {
            // Refuse before shifting past Int.max: a wrapped size would desynchronise the framing.
            guard size <= (Int.max >> 4) else { throw .badRequest("chunk size too large") }
            size = (size << 4) | Int(digit)
            index += 1
        }
        guard index > start else { throw .badRequest("invalid chunk size") }
        guard index < end else { return size }
        while index < end, ByteClass.isOWS(buf[index]) { index += 1 }
        guard index < end, buf[index] == 0x3B else { throw .badRequest("invalid chunk size") }
        for i in index..<end where !ByteClass.isFieldValueChar(buf[i]) {
            throw .badRequest("invalid byte in chunk extension")
        }
        return size
    }
}
