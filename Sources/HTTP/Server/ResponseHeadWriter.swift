import Core
import Foundation

/// Serializes a response head straight into a byte buffer (no intermediate strings for the fixed parts).
enum ResponseHeadWriter {
    static func write(into out: inout [UInt8], status: HTTPStatus, headers: HTTPHeaders, date: [UInt8],
                      server: [UInt8], requestID: String?, body: ResponseBody, chunked: Bool, omitLength: Bool,
                      keepAlive: Bool, http10: Bool) {
        if let line = commonStatusLine(status) {
            out.append(contentsOf: line)
        } else {
            out.append(contentsOf: statusPrefix)
            appendDecimal(status.code, to: &out)
            out.append(UInt8(ascii: " "))
            appendSanitized(status.reasonPhrase, to: &out)
            out.append(contentsOf: crlf)
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
            out.append(contentsOf: colonSpace)
            appendSanitized(value, to: &out)
            out.append(contentsOf: crlf)
        }
        if let serverOverride {
            out.append(contentsOf: serverName)
            appendSanitized(serverOverride, to: &out)
            out.append(contentsOf: crlf)
        } else {
            out.append(contentsOf: server)
        }
        if let requestID, !requestID.isEmpty, !sawRequestID {
            out.append(contentsOf: requestIDName)
            appendSanitized(requestID, to: &out)
            out.append(contentsOf: crlf)
        }
        if chunked {
            out.append(contentsOf: chunkedLine)
        } else if !omitLength, let length = body.knownLength {
            out.append(contentsOf: contentLengthName)
            appendDecimal(length, to: &out)
            out.append(contentsOf: crlf)
        }
        if !keepAlive {
            out.append(contentsOf: closeLine)
        } else if http10 {
            out.append(contentsOf: keepAliveLine)
        }
        out.append(contentsOf: crlf)
    }

    /// The whole status line of the statuses most responses carry, with their standard phrase; nil for
    /// others (written piece by piece).
    static func commonStatusLine(_ status: HTTPStatus) -> [UInt8]? {
        switch status.code {
        case 200 where status.reasonPhrase == "OK": return line200
        case 201 where status.reasonPhrase == "Created": return line201
        default: return nil
        }
    }

    private static let line200: [UInt8] = Array("HTTP/1.1 200 OK\r\n".utf8)
    private static let line201: [UInt8] = Array("HTTP/1.1 201 Created\r\n".utf8)
    private static let statusPrefix: [UInt8] = Array("HTTP/1.1 ".utf8)
    private static let crlf: [UInt8] = [13, 10]
    private static let colonSpace: [UInt8] = [58, 32]
    private static let serverName: [UInt8] = Array("Server: ".utf8)
    private static let requestIDName: [UInt8] = Array("X-Request-Id: ".utf8)
    private static let contentLengthName: [UInt8] = Array("Content-Length: ".utf8)
    private static let chunkedLine: [UInt8] = Array("Transfer-Encoding: chunked\r\n".utf8)
    private static let closeLine: [UInt8] = Array("Connection: close\r\n".utf8)
    private static let keepAliveLine: [UInt8] = Array("Connection: keep-alive\r\n".utf8)

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
