/// Incremental HTTP/1.0 and HTTP/1.1 request parser.
///
/// Accepted grammar (RFC 9112, strict subset):
/// ```
/// request      = *( CRLF ) request-line *( field-line CRLF ) CRLF [ body ]
/// request-line = method SP request-target SP ( "HTTP/1.1" / "HTTP/1.0" ) CRLF
/// method       = 1*tchar                              ; case-sensitive
/// target       = origin-form ("/" ...) / absolute-form ("http://" or "https://" authority [path] ["?" query])
///              / "*" (OPTIONS only)                   ; absolute-form becomes origin form, Host = authority
/// field-line   = 1*tchar ":" OWS value OWS            ; value bytes: HTAB, SP, VCHAR, obs-text
/// chunked-body = *( 1*HEXDIG [ BWS ";" ext ] CRLF data CRLF ) "0" [ BWS ";" ext ] CRLF *( trailer CRLF ) CRLF
/// ```
/// Empty lines before a request line are skipped (RFC 9112 section 2.2). Chunk extensions are ignored;
/// trailer fields are read and dropped.
///
/// Rejected with `.badRequest`: a line ending in a bare LF or containing a bare CR; NUL or any other
/// control byte in the head; a method that is not a token; a missing or doubled space in the request
/// line; a version other than HTTP/1.0 or HTTP/1.1; a target that is empty, has control bytes, invalid
/// UTF-8, userinfo in absolute-form, or another form; `*` with a method other than OPTIONS; a header
/// line starting with whitespace (obs-fold); whitespace before the colon or any non-token byte in a
/// name; HTTP/1.1 without exactly one Host, or a repeated Host; Content-Length that is not digits, that
/// overflows, or repeated with differing values; both Content-Length and Transfer-Encoding;
/// Transfer-Encoding on HTTP/1.0 or other than exactly `chunked`; a chunk size that is missing, not
/// hexadecimal, overflows, or a chunk line longer than 4 KiB; chunk data not followed by CRLF.
///
/// Limits (`Limits`): request-target longer than `maxRequestTarget` -> `.uriTooLong`; header section
/// (field lines with their CRLFs) over `maxHeaderBytes`, or more than `maxHeaderCount` fields ->
/// `.headerFieldsTooLarge` (trailers count against `maxHeaderBytes` too); a body over the current body
/// limit -> `.payloadTooLarge` (Content-Length is checked before any body byte is read).
///
/// Use: pass the bytes received so far to `consume`, drop the returned count from the front of the
/// buffer, and call again with what is left (plus anything new) until a call consumes nothing, which
/// means more bytes are needed. Each call stops right after a `.head` (with `.end` in the same call when
/// the request has no body) and right after an `.end`, so at most one request's events come per call
/// and pipelined requests are handed out one at a time. After a `.head` the server may route, call
/// `setBodyLimit`, and send `100 Continue` before the body is parsed. After a thrown error the parser
/// is unusable: answer with the error's status and close the connection.
public struct HTTPRequestParser: Sendable {
    /// Where the parser is in the current request.
    enum State: Sendable, Equatable {
        /// Reading a head (progress in `scan`).
        case head
        /// The head was handed out; the body has not been touched yet.
        case awaitingBody(BodyFraming)
        /// Reading a Content-Length body with `remaining` bytes left.
        case fixed(remaining: Int)
        /// Expecting a chunk-size line.
        case chunkSize
        /// Inside chunk data with `remaining` bytes left.
        case chunkData(remaining: Int)
        /// Expecting the CRLF that closes chunk data.
        case chunkDataEnd
        /// Reading trailer lines after the last chunk; `bytes` read so far.
        case trailers(bytes: Int)
        /// An error was thrown; nothing more is parsed.
        case failed
    }

    /// Chunk-size lines (size plus ignored extensions) longer than this are rejected: nothing legitimate
    /// needs more, and a bound keeps an unterminated line from growing the connection's buffer forever.
    static let maxChunkLine = 4096

    let limits: Limits
    var state: State = .head
    /// The body limit of the current request (reset to `limits.maxBodyBytes` for every head).
    var bodyLimit: Int
    /// Body bytes (after de-chunking) delivered for the current request.
    var bodyReceived = 0
    /// Head scanning progress kept between calls, so a head that arrives in pieces is scanned once.
    var scan = HeadScan()

    /// Creates a parser applying `limits`.
    public init(limits: Limits) {
        self.limits = limits
        self.bodyLimit = limits.maxBodyBytes
    }

    /// True when no request is in progress (no partial head and no pending body): the connection may be
    /// closed as idle without cutting a request short.
    public var isIdle: Bool { state == .head && scan.scanned == 0 }

    /// Parses from `bytes`, appending events to `events`; returns how many bytes were consumed. Unconsumed
    /// bytes (an incomplete line) must be passed again with more data appended.
    public mutating func consume(_ bytes: UnsafeRawBufferPointer, into events: inout [ParseEvent]) throws(HTTPError) -> Int {
        do {
            return try step(bytes, into: &events)
        } catch {
            state = .failed
            throw error
        }
    }

    /// The server calls this after routing a head, to apply the route's body limit (may be lower or higher
    /// than limits.maxBodyBytes). Content-Length above it is rejected at once.
    public mutating func setBodyLimit(_ bytes: Int) throws(HTTPError) {
        bodyLimit = max(0, bytes)
        if case .awaitingBody(.contentLength(let length)) = state, length > bodyLimit {
            state = .failed
            throw .payloadTooLarge
        }
        if bodyReceived > bodyLimit {
            state = .failed
            throw .payloadTooLarge
        }
    }

    /// One call's worth of parsing: at most one head, or body bytes up to the end of one request.
    private mutating func step(_ buf: UnsafeRawBufferPointer, into events: inout [ParseEvent]) throws(HTTPError) -> Int {
        var pos = 0
        while true {
            switch state {
            case .failed:
                throw .badRequest("connection already failed")
            case .head:
                guard let headLength = try scanHead(buf, from: pos) else { return pos }
                let head = try parseHead(buf, from: pos, length: headLength)
                pos += headLength
                scan = HeadScan()
                bodyLimit = limits.maxBodyBytes
                bodyReceived = 0
                events.append(.head(head))
                switch head.framing {
                case .none, .contentLength(0):
                    events.append(.end)
                default:
                    state = .awaitingBody(head.framing)
                }
                return pos
            case .awaitingBody(let framing):
                switch framing {
                case .contentLength(let length):
                    guard length <= bodyLimit else { throw .payloadTooLarge }
                    state = .fixed(remaining: length)
                case .chunked:
                    state = .chunkSize
                case .none:
                    state = .head
                }
            case .fixed(let remaining):
                let take = min(remaining, buf.count - pos)
                guard take > 0 else { return pos }
                emitBody(buf, from: pos, count: take, into: &events)
                pos += take
                bodyReceived += take
                if take == remaining {
                    events.append(.end)
                    state = .head
                    return pos
                }
                state = .fixed(remaining: remaining - take)
            case .chunkSize, .chunkData, .chunkDataEnd, .trailers:
                let before = pos
                pos = try stepChunked(buf, from: pos, into: &events)
                if state == .head || pos == before { return pos }
            }
        }
    }

    /// Appends one `.body` event with a copy of `count` bytes at `from`.
    @inline(__always)
    func emitBody(_ buf: UnsafeRawBufferPointer, from: Int, count: Int, into events: inout [ParseEvent]) {
        events.append(.body(Array(UnsafeRawBufferPointer(rebasing: buf[from..<(from + count)]))))
    }
}
