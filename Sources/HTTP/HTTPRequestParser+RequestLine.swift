import Core

extension HTTPRequestParser {
    /// The parts of a request line.
    struct RequestLine {
        var method: HTTPMethod
        /// Origin-form target (or "*").
        var target: String
        var version: HTTPVersion
        /// The authority of an absolute-form target, which replaces the Host header.
        var absoluteAuthority: String?
    }

    /// Parses `method SP request-target SP HTTP-version` from `start..<end` (CRLF excluded).
    func parseRequestLine(_ buf: UnsafeRawBufferPointer, start: Int, end: Int) throws(HTTPError) -> RequestLine {
        guard let firstSpace = buf.firstIndex(of: ByteClass.space, from: start, to: end) else {
            throw .badRequest("malformed request line")
        }
        guard firstSpace > start else { throw .badRequest("malformed request line") }
        for i in start..<firstSpace where !ByteClass.isTokenChar(buf[i]) {
            throw .badRequest("invalid method")
        }
        let targetStart = firstSpace + 1
        guard let secondSpace = buf.firstIndex(of: ByteClass.space, from: targetStart, to: end) else {
            throw .badRequest("malformed request line")
        }
        let targetLength = secondSpace - targetStart
        guard targetLength > 0 else { throw .badRequest("malformed request line") }
        guard targetLength <= limits.maxRequestTarget else { throw .uriTooLong }
        let version = try parseVersion(buf, start: secondSpace + 1, end: end)
        let method = Self.method(buf, start: start, end: firstSpace)

        var highBytes = false
        var scanned = targetStart
        if let base = buf.baseAddress {
            // Eight bytes at a time while none is a control byte, a space or DEL (the byte loop below finds
            // and refuses one exactly, from the word it is in); a set high bit only notes non-ASCII.
            while secondSpace - scanned >= 8 {
                let word = base.loadUnaligned(fromByteOffset: scanned, as: UInt64.self)
                if WordBytes.below(word, ByteClass.space + 1) | WordBytes.equal(word, 0x7F) != 0 { break }
                if word & WordBytes.highs != 0 { highBytes = true }
                scanned += 8
            }
        }
        for i in scanned..<secondSpace {
            let b = buf[i]
            // Control bytes, DEL and spaces are never part of a request-target.
            if b <= ByteClass.space || b == 0x7F { throw .badRequest("invalid byte in request target") }
            if b >= 0x80 { highBytes = true }
        }
        let raw = UnsafeRawBufferPointer(rebasing: buf[targetStart..<secondSpace])
        let target: String
        if highBytes {
            guard let decoded = String(validating: raw, as: UTF8.self) else {
                throw .badRequest("request target is not valid UTF-8")
            }
            target = decoded
        } else {
            target = String(decoding: raw, as: UTF8.self)
        }

        switch buf[targetStart] {
        case 0x2F: // "/": origin-form, the common case
            return RequestLine(method: method, target: target, version: version, absoluteAuthority: nil)
        case 0x2A where targetLength == 1: // "*": asterisk-form
            guard method == .options else { throw .badRequest("asterisk-form target is only valid for OPTIONS") }
            return RequestLine(method: method, target: target, version: version, absoluteAuthority: nil)
        default:
            let (authority, path) = try Self.splitAbsoluteForm(target)
            return RequestLine(method: method, target: path, version: version, absoluteAuthority: authority)
        }
    }

    /// Exactly "HTTP/1.1" or "HTTP/1.0" (the name is case-sensitive).
    private func parseVersion(_ buf: UnsafeRawBufferPointer, start: Int, end: Int) throws(HTTPError) -> HTTPVersion {
        guard end - start == 8,
              buf[start] == 0x48, buf[start + 1] == 0x54, buf[start + 2] == 0x54, buf[start + 3] == 0x50,
              buf[start + 4] == 0x2F, buf[start + 5] == 0x31, buf[start + 6] == 0x2E else {
            throw .badRequest("malformed HTTP version")
        }
        switch buf[start + 7] {
        case 0x31: return .http1_1
        case 0x30: return .http1_0
        default: throw .badRequest("unsupported HTTP version")
        }
    }

    /// The method, reusing the shared constants for the common ones so no String is built for them.
    private static func method(_ buf: UnsafeRawBufferPointer, start: Int, end: Int) -> HTTPMethod {
        let length = end - start
        switch (length, buf[start]) {
        case (3, 0x47) where buf[start + 1] == 0x45 && buf[start + 2] == 0x54: return .get
        case (3, 0x50) where buf[start + 1] == 0x55 && buf[start + 2] == 0x54: return .put
        case (4, 0x50) where buf[start + 1] == 0x4F && buf[start + 2] == 0x53 && buf[start + 3] == 0x54: return .post
        case (4, 0x48) where buf[start + 1] == 0x45 && buf[start + 2] == 0x41 && buf[start + 3] == 0x44: return .head
        default: return HTTPMethod(rawValue: buf.string(start, end))
        }
    }

    /// Splits `http(s)://authority[/path][?query]` into the authority and an origin-form target.
    static func splitAbsoluteForm(_ target: String) throws(HTTPError) -> (authority: String, path: String) {
        let utf8 = target.utf8
        let schemeLength: Int
        if Self.hasPrefixIgnoringCase(utf8, "http://") {
            schemeLength = 7
        } else if Self.hasPrefixIgnoringCase(utf8, "https://") {
            schemeLength = 8
        } else {
            throw .badRequest("invalid request target")
        }
        let rest = utf8.dropFirst(schemeLength)
        let authorityEnd = rest.firstIndex { $0 == 0x2F || $0 == 0x3F } ?? rest.endIndex
        let authority = rest[rest.startIndex..<authorityEnd]
        guard !authority.isEmpty else { throw .badRequest("absolute-form target without host") }
        // Userinfo in an http(s) URI is deprecated (RFC 9110 4.2.4) and a known way to confuse proxies.
        guard !authority.contains(0x40) else { throw .badRequest("userinfo in request target") }
        let tail = rest[authorityEnd...]
        let path: String
        if tail.isEmpty {
            path = "/"
        } else if tail.first == 0x3F {
            path = "/" + String(decoding: tail, as: UTF8.self)
        } else {
            path = String(decoding: tail, as: UTF8.self)
        }
        return (String(decoding: authority, as: UTF8.self), path)
    }

    private static func hasPrefixIgnoringCase(_ utf8: String.UTF8View, _ prefix: StaticString) -> Bool {
        let count = prefix.utf8CodeUnitCount
        guard utf8.count >= count else { return false }
        let expected = prefix.utf8Start
        for (i, b) in utf8.prefix(count).enumerated() where ByteClass.lower(b) != expected[i] { return false }
        return true
    }
}
