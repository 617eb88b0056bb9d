extension HTTPRequestParser {
    /// What the header fields that steer parsing say, gathered while the fields are read.
    struct FieldSummary {
        var hostCount = 0
        /// The agreed Content-Length value, when one was sent.
        var contentLength: Int?
        var transferEncodingSeen = false
        var chunkedCount = 0
        var lastCodingIsChunked = false
        var otherCoding = false
        var connectionClose = false
        var connectionKeepAlive = false
        var expectsContinue = false

        /// Looks at one field; names are recognised by length and first letter, so most fields cost no
        /// string comparison at all.
        mutating func note(_ buf: UnsafeRawBufferPointer, field: FieldLine) throws(HTTPError) {
            let start = field.nameStart
            let length = field.nameEnd - field.nameStart
            switch (length, ByteClass.lower(buf[start])) {
            case (4, 0x68) where buf.equalsIgnoringCase(start: start, length: length, lowercase: "host"):
                hostCount += 1
            case (6, 0x65) where buf.equalsIgnoringCase(start: start, length: length, lowercase: "expect"):
                if buf.equalsIgnoringCase(start: field.valueStart, length: field.valueEnd - field.valueStart,
                                          lowercase: "100-continue") {
                    expectsContinue = true
                }
            case (10, 0x63) where buf.equalsIgnoringCase(start: start, length: length, lowercase: "connection"):
                noteConnection(buf, field: field)
            case (14, 0x63) where buf.equalsIgnoringCase(start: start, length: length, lowercase: "content-length"):
                try noteContentLength(buf, field: field)
            case (17, 0x74) where buf.equalsIgnoringCase(start: start, length: length, lowercase: "transfer-encoding"):
                try noteTransferEncoding(buf, field: field)
            default:
                break
            }
        }

        /// Calls `body` with the bounds of each non-empty, OWS-trimmed element of a comma-separated list.
        private func forEachElement(_ buf: UnsafeRawBufferPointer, field: FieldLine,
                                    _ body: (Int, Int) throws(HTTPError) -> Void) throws(HTTPError) {
            var elementStart = field.valueStart
            while elementStart <= field.valueEnd {
                let comma = buf.firstIndex(of: 0x2C, from: elementStart, to: field.valueEnd) ?? field.valueEnd
                var s = elementStart, e = comma
                while s < e, ByteClass.isOWS(buf[s]) { s += 1 }
                while e > s, ByteClass.isOWS(buf[e - 1]) { e -= 1 }
                if s < e { try body(s, e) }
                elementStart = comma + 1
            }
        }

        private mutating func noteConnection(_ buf: UnsafeRawBufferPointer, field: FieldLine) {
            var close = false, keepAlive = false
            try? forEachElement(buf, field: field) { s, e in
                if buf.equalsIgnoringCase(start: s, length: e - s, lowercase: "close") { close = true }
                if buf.equalsIgnoringCase(start: s, length: e - s, lowercase: "keep-alive") { keepAlive = true }
            }
            connectionClose = connectionClose || close
            connectionKeepAlive = connectionKeepAlive || keepAlive
        }

        /// Content-Length: digits only; a list or repeated field is accepted only when every value is the
        /// same (RFC 9112 6.3), since differing lengths are the classic smuggling vector.
        private mutating func noteContentLength(_ buf: UnsafeRawBufferPointer, field: FieldLine) throws(HTTPError) {
            var values: [Int] = []
            try forEachElement(buf, field: field) { s, e throws(HTTPError) in
                // 18 digits stay below Int64.max, so the sum below cannot overflow.
                guard e - s <= 18 else { throw .badRequest("Content-Length too large") }
                var value = 0
                for i in s..<e {
                    let b = buf[i]
                    guard b >= 0x30, b <= 0x39 else { throw .badRequest("invalid Content-Length") }
                    value = value * 10 + Int(b - 0x30)
                }
                values.append(value)
            }
            guard let first = values.first else { throw .badRequest("empty Content-Length") }
            for value in values where value != first { throw .badRequest("conflicting Content-Length values") }
            if let existing = contentLength, existing != first {
                throw .badRequest("conflicting Content-Length values")
            }
            contentLength = first
        }

        private mutating func noteTransferEncoding(_ buf: UnsafeRawBufferPointer, field: FieldLine) throws(HTTPError) {
            transferEncodingSeen = true
            var any = false
            var chunked = chunkedCount, last = lastCodingIsChunked, other = otherCoding
            try forEachElement(buf, field: field) { s, e in
                any = true
                if buf.equalsIgnoringCase(start: s, length: e - s, lowercase: "chunked") {
                    chunked += 1
                    last = true
                } else {
                    other = true
                    last = false
                }
            }
            guard any else { throw .badRequest("empty Transfer-Encoding") }
            chunkedCount = chunked
            lastCodingIsChunked = last
            otherCoding = other
        }

        /// Decides the framing from the collected fields (RFC 9112 6.1-6.3), refusing every ambiguous form.
        func framing(version: HTTPVersion) throws(HTTPError) -> BodyFraming {
            if transferEncodingSeen {
                guard version == .http1_1 else { throw .badRequest("Transfer-Encoding in an HTTP/1.0 request") }
                guard contentLength == nil else { throw .badRequest("both Content-Length and Transfer-Encoding") }
                // Only plain "chunked" is decoded here; any other coding (even before a final chunked)
                // would hand undecoded bytes to handlers, so it is refused.
                guard chunkedCount == 1, lastCodingIsChunked, !otherCoding else {
                    throw .badRequest("unsupported Transfer-Encoding")
                }
                return .chunked
            }
            if let length = contentLength { return .contentLength(length) }
            return .none
        }
    }
}
