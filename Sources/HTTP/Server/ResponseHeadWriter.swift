import Core
import Foundation

/// Serializes a response head straight into a byte buffer (no intermediate strings for the fixed parts).
enum ResponseHeadWriter {
    /// Serializes the head: the status line, `Date`, the handler's headers (framing and connection headers
    /// dropped, CR/LF/NUL blanked), `Server`, `X-Request-Id`, the framing and the connection line. With
    /// `closingWhenAsked`, a handler's `Connection` header asking to close (the first one, as a lookup by
    /// name finds) turns `keepAlive` off. Returns the `keepAlive` written.
    ///
    /// The head is measured first and then written in one piece (see `HeadCursor`); `writePiecewise` writes
    /// the same bytes one append at a time and is what a disagreement between the two passes falls back to.
    @discardableResult
    static func write(into out: inout [UInt8], status: HTTPStatus, headers: HTTPHeaders, date: [UInt8],
                      server: [UInt8], requestID: String?, body: ResponseBody, chunked: Bool, omitLength: Bool,
                      keepAlive: Bool, http10: Bool, closingWhenAsked: Bool = false) -> Bool {
        var keepAlive = keepAlive
        let commonLine = commonStatusLine(status)
        var size = date.count + crlf.utf8CodeUnitCount
        if let commonLine {
            size += commonLine.utf8CodeUnitCount
        } else {
            size += statusPrefix.utf8CodeUnitCount + HeadCursor.decimalDigits(status.code) + 1
                + status.reasonPhrase.utf8.count + crlf.utf8CodeUnitCount
        }
        var sawRequestID = false
        var sawConnection = false
        var serverOverride: String?
        headers.fields.withUnsafeBufferPointer { fields in
            for i in fields.indices {
                switch role(of: fields[i].name) {
                case .framing:
                    continue
                case .connection:
                    if closingWhenAsked && !sawConnection {
                        sawConnection = true
                        if valueAsksToClose(fields[i].value) { keepAlive = false }
                    }
                    continue
                case .server:
                    if serverOverride == nil { serverOverride = fields[i].value }
                    continue
                case .requestID:
                    sawRequestID = true
                case .other:
                    break
                }
                size += fields[i].name.utf8.count + fields[i].value.utf8.count + colonSpace.utf8CodeUnitCount
                    + crlf.utf8CodeUnitCount
            }
        }
        if let serverOverride {
            size += serverName.utf8CodeUnitCount + serverOverride.utf8.count + crlf.utf8CodeUnitCount
        } else {
            size += server.count
        }
        let writesRequestID = requestID.map { !$0.isEmpty } == true && !sawRequestID
        if writesRequestID, let requestID {
            size += requestIDName.utf8CodeUnitCount + requestID.utf8.count + crlf.utf8CodeUnitCount
        }
        let length = chunked || omitLength ? nil : body.knownLength
        if chunked {
            size += chunkedLine.utf8CodeUnitCount
        } else if let length {
            size += contentLengthName.utf8CodeUnitCount + HeadCursor.decimalDigits(length) + crlf.utf8CodeUnitCount
        }
        if !keepAlive {
            size += closeLine.utf8CodeUnitCount
        } else if http10 {
            size += keepAliveLine.utf8CodeUnitCount
        }
        let finalKeepAlive = keepAlive
        let done = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: size) { buffer -> Bool in
            guard let base = buffer.baseAddress else { return false }
            var cursor = HeadCursor(base: base, capacity: buffer.count)
            if let commonLine {
                cursor.write(commonLine)
            } else {
                cursor.write(statusPrefix)
                cursor.writeDecimal(status.code)
                cursor.write(byte: UInt8(ascii: " "))
                cursor.writeSanitized(status.reasonPhrase)
                cursor.write(crlf)
            }
            cursor.write(date)
            headers.fields.withUnsafeBufferPointer { fields in
                for i in fields.indices {
                    switch role(of: fields[i].name) {
                    case .framing, .connection, .server: continue
                    case .requestID, .other: break
                    }
                    cursor.writeSanitized(fields[i].name)
                    cursor.write(colonSpace)
                    cursor.writeSanitized(fields[i].value)
                    cursor.write(crlf)
                }
            }
            if let serverOverride {
                cursor.write(serverName)
                cursor.writeSanitized(serverOverride)
                cursor.write(crlf)
            } else {
                cursor.write(server)
            }
            if writesRequestID, let requestID {
                cursor.write(requestIDName)
                cursor.writeSanitized(requestID)
                cursor.write(crlf)
            }
            if chunked {
                cursor.write(chunkedLine)
            } else if let length {
                cursor.write(contentLengthName)
                cursor.writeDecimal(length)
                cursor.write(crlf)
            }
            if !finalKeepAlive {
                cursor.write(closeLine)
            } else if http10 {
                cursor.write(keepAliveLine)
            }
            cursor.write(crlf)
            guard !cursor.overflowed, cursor.count == size else { return false }
            out.append(contentsOf: cursor.written)
            return true
        }
        if !done {
            writePiecewise(into: &out, status: status, headers: headers, date: date, server: server,
                           requestID: requestID, body: body, chunked: chunked, omitLength: omitLength,
                           keepAlive: finalKeepAlive, http10: http10)
        }
        return finalKeepAlive
    }

    /// What the server does with a handler's header, by its name (ASCII case-insensitive).
    enum Role {
        /// `Content-Length`, `Transfer-Encoding`: the server owns framing; dropped.
        case framing
        /// `Connection`: the server owns connection management; dropped (it may ask to close).
        case connection
        /// `Server`: written in the server line's place.
        case server
        /// `X-Request-Id`: written, and the server's own is left out.
        case requestID
        case other
    }

    /// The role of a header name. Names are told apart by length first, so most cost no comparison.
    static func role(of name: String) -> Role {
        switch name.utf8.count {
        case 6: return equalsIgnoringCase(name, "server") ? .server : .other
        case 10: return equalsIgnoringCase(name, "connection") ? .connection : .other
        case 12: return equalsIgnoringCase(name, "x-request-id") ? .requestID : .other
        case 14: return equalsIgnoringCase(name, "content-length") ? .framing : .other
        case 17: return equalsIgnoringCase(name, "transfer-encoding") ? .framing : .other
        default: return .other
        }
    }

    /// The head written one append at a time: the same bytes as `write` (with `keepAlive` as given).
    static func writePiecewise(into out: inout [UInt8], status: HTTPStatus, headers: HTTPHeaders, date: [UInt8],
                               server: [UInt8], requestID: String?, body: ResponseBody, chunked: Bool,
                               omitLength: Bool, keepAlive: Bool, http10: Bool) {
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
        return valueAsksToClose(value)
    }

    /// Whether a `Connection` value lists `close`.
    static func valueAsksToClose(_ value: String) -> Bool {
        value.lowercased().split(separator: ",").contains { $0.trimmingOWS() == "close" }
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
