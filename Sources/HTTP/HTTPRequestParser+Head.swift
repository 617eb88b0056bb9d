extension HTTPRequestParser {
    /// Builds the `RequestHead` from a complete head of `length` bytes at `base` (already checked by
    /// `scanHead`: every line ends in CRLF and the limits hold).
    func parseHead(_ buf: UnsafeRawBufferPointer, from base: Int, length: Int) throws(HTTPError) -> RequestHead {
        let lineStart = base + scan.requestLineStart
        let lineEnd = lineStart + scan.requestLineLength
        let line = try parseRequestLine(buf, start: lineStart, end: lineEnd)

        var fields = FieldSummary()
        var headers = HTTPHeaders()
        headers.reserveCapacity(scan.fieldCount)
        var cursor = lineEnd + 2
        let headEnd = base + length - 2   // the final empty line
        while cursor < headEnd {
            guard let lf = buf.firstIndex(of: ByteClass.lf, from: cursor, to: headEnd) else {
                throw .badRequest("malformed header section")
            }
            let field = try parseFieldLine(buf, start: cursor, end: lf - 1)
            try fields.note(buf, field: field)
            let name = CommonHeaderNames.lookup(buf, field.nameStart, field.nameEnd)
                ?? buf.string(field.nameStart, field.nameEnd)
            headers.add(name, buf.string(field.valueStart, field.valueEnd))
            cursor = lf + 1
        }

        if let authority = line.absoluteAuthority {
            // RFC 9112 section 3.2.2: with an absolute-form target the Host header is replaced by the
            // target's authority.
            headers.set("Host", authority)
            fields.hostCount = 1
        }
        if line.version == .http1_1 {
            guard fields.hostCount == 1 else {
                throw .badRequest(fields.hostCount == 0 ? "missing Host header" : "repeated Host header")
            }
        } else if fields.hostCount > 1 {
            throw .badRequest("repeated Host header")
        }
        let framing = try fields.framing(version: line.version)
        let keepAlive: Bool
        switch line.version {
        case .http1_1: keepAlive = !fields.connectionClose
        case .http1_0: keepAlive = fields.connectionKeepAlive && !fields.connectionClose
        }
        // 100-continue is meaningless for HTTP/1.0 clients, which never wait for it (RFC 9110 10.1.1).
        let expectsContinue = fields.expectsContinue && line.version == .http1_1
        return RequestHead(method: line.method, target: line.target, version: line.version, headers: headers,
                           framing: framing, expectsContinue: expectsContinue, keepAlive: keepAlive)
    }

    /// Offsets of one field line's name and trimmed value.
    struct FieldLine {
        var nameStart: Int
        var nameEnd: Int
        var valueStart: Int
        var valueEnd: Int
    }

    /// Splits `name ":" OWS value OWS` and validates every byte.
    func parseFieldLine(_ buf: UnsafeRawBufferPointer, start: Int, end: Int) throws(HTTPError) -> FieldLine {
        guard start < end else { throw .badRequest("empty header line") }
        if ByteClass.isOWS(buf[start]) {
            throw .badRequest("obsolete line folding is not accepted")
        }
        var index = start
        while index < end, ByteClass.isTokenChar(buf[index]) { index += 1 }
        guard index < end, buf[index] == ByteClass.colon else {
            // Covers whitespace before the colon, a missing colon, and bytes that are not token characters.
            throw .badRequest("invalid header name")
        }
        guard index > start else { throw .badRequest("empty header name") }
        let nameEnd = index
        var valueStart = index + 1
        while valueStart < end, ByteClass.isOWS(buf[valueStart]) { valueStart += 1 }
        var valueEnd = end
        while valueEnd > valueStart, ByteClass.isOWS(buf[valueEnd - 1]) { valueEnd -= 1 }
        guard buf.allFieldValueChars(from: valueStart, to: valueEnd) else {
            throw .badRequest("invalid byte in header value")
        }
        return FieldLine(nameStart: start, nameEnd: nameEnd, valueStart: valueStart, valueEnd: valueEnd)
    }
}
