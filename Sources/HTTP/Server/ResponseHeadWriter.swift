import Core
import Foundation

/// Serializes a response head straight into a byte buffer (no intermediate strings for the fixed parts).
enum ResponseHeadWriter {
    static func write(into out: inout [UInt8], status: HTTPStatus, headers: HTTPHeaders, date: [UInt8],
                      server: [UInt8], requestID: String?, body: ResponseBody, chunked: Bool, omitLength: Bool,
                      keepAlive: Bool, http10: Bool) {
        if let line = commonStatusLine(status) {
            append(line, to: &out)
        } else {
            append(statusPrefix, to: &out)
            appendDecimal(status.code, to: &out)
            out.append(UInt8(ascii: " "))
            appendSanitized(status.reasonPhrase, to: &out)
            append(crlf, to: &out)
        }
        out.append(contentsOf: date)
        var sawRequestID = false
        var serverOverride: String?
        for (name, value) in headers {
            // The server owns framing and connection management; a handler's values would contradict them.
            if equalsIgnoringCase(name, "content-length") || equalsIgnoringCase(name, "transfer-encoding")
                || equalsIgnoringCase(name, "connection") {
                continue
            }
            if equalsIgnoringCase(name, "server") {
                // The first one, as a lookup by name would give; written in the server line's place below.
                if serverOverride == nil { serverOverride = value }
                continue
            }
            if equalsIgnoringCase(name, "x-request-id") { sawRequestID = true }
            appendSanitized(name, to: &out)
            append(colonSpace, to: &out)
            appendSanitized(value, to: &out)
            append(crlf, to: &out)
        }
        if let serverOverride {
            append(serverName, to: &out)
            appendSanitized(serverOverride, to: &out)
            append(crlf, to: &out)
        } else {
            out.append(contentsOf: server)
        }
        if let requestID, !requestID.isEmpty, !sawRequestID {
            append(requestIDName, to: &out)
            appendSanitized(requestID, to: &out)
            append(crlf, to: &out)
        }
        if chunked {
            append(chunkedLine, to: &out)
        } else if !omitLength, let length = body.knownLength {
            append(contentLengthName, to: &out)
            appendDecimal(length, to: &out)
            append(crlf, to: &out)
        }
        if !keepAlive {
            append(closeLine, to: &out)
        } else if http10 {
            append(keepAliveLine, to: &out)
        }
        append(crlf, to: &out)
    }

    /// The whole status line of the statuses most responses carry, with their standard phrase; nil for
    /// others (written piece by piece).
    static func commonStatusLine(_ status: HTTPStatus) -> StaticString? {
        switch status.code {
        case 200 where status.reasonPhrase == "OK": return line200
        case 201 where status.reasonPhrase == "Created": return line201
        default: return nil
        }
    }

    // The fixed pieces are static strings, not arrays: an array constant is one heap object shared by
    // every thread, and appending it retained and released it, moving its reference count's cache line
    // between the cores on every response. Static strings live in the binary and are never counted.
    private static let line200: StaticString = "HTTP/1.1 200 OK\r\n"
    private static let line201: StaticString = "HTTP/1.1 201 Created\r\n"
    private static let statusPrefix: StaticString = "HTTP/1.1 "
    private static let crlf: StaticString = "\r\n"
    private static let colonSpace: StaticString = ": "
    private static let serverName: StaticString = "Server: "
    private static let requestIDName: StaticString = "X-Request-Id: "
    private static let contentLengthName: StaticString = "Content-Length: "
    private static let chunkedLine: StaticString = "Transfer-Encoding: chunked\r\n"
    private static let closeLine: StaticString = "Connection: close\r\n"
    private static let keepAliveLine: StaticString = "Connection: keep-alive\r\n"

    /// Appends the bytes of a static string.
    static func append(_ text: StaticString, to out: inout [UInt8]) {
        text.withUTF8Buffer { out.append(contentsOf: $0) }
    }

    /// Whether a handler's headers ask for the connection to close.
    static func asksToClose(_ headers: HTTPHeaders) -> Bool {
        guard let value = headers["Connection"] else { return false }
        return value.lowercased().split(separator: ",").contains { $0.trimmingOWS() == "close" }
    }

    /// Appends `value` in decimal.
    static func appendDecimal(_ value: Int, to out: inout [UInt8]) {
        if value < 0 {
            out.append(UInt8(ascii: "-"))
            appendDecimal(value == Int.min ? Int.max : -value, to: &out)
            return
        }
        if value < 10 {
            out.append(UInt8(truncatingIfNeeded: 48 + value))
            return
        }
        if value < 1000 {
            // Status codes and most small bodies' lengths: two or three single appends.
            if value >= 100 { out.append(UInt8(truncatingIfNeeded: 48 + value / 100)) }
            out.append(UInt8(truncatingIfNeeded: 48 + value / 10 % 10))
            out.append(UInt8(truncatingIfNeeded: 48 + value % 10))
            return
        }
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                     UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        var rest = value
        withUnsafeMutableBytes(of: &digits) { buffer in
            while rest > 0 && count < buffer.count {
                buffer[buffer.count - 1 - count] = UInt8(truncatingIfNeeded: 48 + rest % 10)
                rest /= 10
                count += 1
            }
            out.append(contentsOf: buffer[(buffer.count - count)...])
        }
    }

    /// Appends header text with CR, LF and NUL replaced by spaces, so no value (some echo request data)
    /// can split the response.
    static func appendSanitized(_ text: String, to out: inout [UInt8]) {
        // withUTF8, not utf8.withContiguousStorageIfAvailable: the latter has no storage to offer for the
        // small strings most header names and values are, which then went byte by byte.
        var text = text
        text.withUTF8 { bytes in
            guard hasControlBelow14(bytes) else {
                out.append(contentsOf: bytes)
                return
            }
            for byte in bytes {
                out.append(byte == 13 || byte == 10 || byte == 0 ? 32 : byte)
            }
        }
    }

    /// Whether some byte is below 14 (CR, LF and NUL are; the loop above decides which ones to replace).
    /// Eight bytes at a time: every header name and value of every response passes through here.
    static func hasControlBelow14(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return false }
        var i = 0
        while bytes.count - i >= 8 {
            if WordBytes.below(WordBytes.load(base, at: i), 14) != 0 { return true }
            i += 8
        }
        while i < bytes.count {
            if base[i] < 14 { return true }
            i += 1
        }
        return false
    }

    /// ASCII case-insensitive comparison with a lower-case literal.
    static func equalsIgnoringCase(_ name: String, _ lower: StaticString) -> Bool {
        let utf8 = name.utf8
        guard utf8.count == lower.utf8CodeUnitCount else { return false }
        return lower.withUTF8Buffer { expected in
            var index = 0
            for byte in utf8 {
                let folded = byte >= 65 && byte <= 90 ? byte | 0x20 : byte
                if folded != expected[index] { return false }
                index += 1
            }
            return true
        }
    }
}
