/// Progress through a head that may arrive in several pieces. Offsets are relative to the head's
/// first byte, which is always the first byte passed to `consume` while a head is pending.
struct HeadScan: Sendable, Equatable {
    /// Bytes already searched for line ends.
    var scanned = 0
    /// Start of the line not yet terminated.
    var lineStart = 0
    /// Start of the request line (after skipped empty lines).
    var requestLineStart = 0
    /// Length of the request line without CRLF, once complete.
    var requestLineLength = 0
    /// True once the request line is complete.
    var sawRequestLine = false
    /// Complete field lines so far.
    var fieldCount = 0
    /// Bytes of complete field lines so far, CRLFs included.
    var fieldBytes = 0
}

extension HTTPRequestParser {
    /// Bytes of empty lines accepted before a request line; more is not a client being lenient but
    /// a peer sending garbage.
    static let maxLeadingEmptyBytes = 1024
    /// Room allowed on a request line beyond the target for the method, two spaces and the version.
    static let requestLineSlack = 1024

    /// Finds the end of the head starting at `base`, verifying that every line ends in CRLF and
    /// enforcing the size and count limits as lines complete (and on a partial line, as soon as it can
    /// no longer fit). Returns the head's length including its final empty line, or nil when incomplete.
    mutating func scanHead(_ buf: UnsafeRawBufferPointer, from base: Int) throws(HTTPError) -> Int? {
        let end = buf.count
        var index = base + scan.scanned
        while let lf = buf.firstIndex(of: ByteClass.lf, from: index, to: end) {
            let lineStart = base + scan.lineStart
            // Only CRLF ends a line in the head: a bare LF is how request smuggling through lenient
            // front ends starts, so it is refused rather than tolerated.
            guard lf > lineStart, buf[lf - 1] == ByteClass.cr else {
                throw .badRequest("line not terminated by CRLF")
            }
            let contentLength = lf - 1 - lineStart
            let next = lf + 1 - base
            if !scan.sawRequestLine {
                if contentLength == 0 {
                    guard next <= Self.maxLeadingEmptyBytes else { throw .badRequest("too many empty lines") }
                    scan.requestLineStart = next
                } else {
                    guard contentLength <= limits.maxRequestTarget + Self.requestLineSlack else { throw .uriTooLong }
                    scan.sawRequestLine = true
                    scan.requestLineLength = contentLength
                }
            } else if contentLength == 0 {
                return next
            } else {
                scan.fieldCount += 1
                scan.fieldBytes += contentLength + 2
                guard scan.fieldCount <= limits.maxHeaderCount, scan.fieldBytes <= limits.maxHeaderBytes else {
                    throw .headerFieldsTooLarge
                }
            }
            scan.lineStart = next
            index = lf + 1
        }
        scan.scanned = end - base
        try checkPartialLine(buf, lineStart: base + scan.lineStart)
        return nil
    }

    /// Rejects an unterminated line that is already too long to be accepted once it completes, so a
    /// peer cannot make the connection buffer grow without bound.
    private func checkPartialLine(_ buf: UnsafeRawBufferPointer, lineStart: Int) throws(HTTPError) {
        let partial = buf.count - lineStart
        guard partial > 0 else { return }
        if !scan.sawRequestLine {
            if partial > limits.maxRequestTarget + Self.requestLineSlack { throw .uriTooLong }
            return
        }
        // A lone CR may be the start of the final empty line, which never counts against the limit.
        if partial == 1, buf[lineStart] == ByteClass.cr { return }
        // The finished line will count at least `partial + 1` bytes (its LF, or CR and LF).
        if scan.fieldBytes + partial + 1 > limits.maxHeaderBytes { throw .headerFieldsTooLarge }
    }
}
