#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Header names that nearly every request carries, spelled the way clients send them. A name that
/// matches one of these byte for byte is returned as a string literal (immortal, never allocated or
/// validated) instead of a new String, which is a measurable share of parsing a small request.
enum CommonHeaderNames {
    /// The literal for `buf[start..<end]` when it is one of the common names (exact case), else nil.
    static func lookup(_ buf: UnsafeRawBufferPointer, _ start: Int, _ end: Int) -> String? {
        switch end - start {
        case 4:
            if equal(buf, start, "Host") { return "Host" }
        case 6:
            if equal(buf, start, "Accept") { return "Accept" }
            if equal(buf, start, "Cookie") { return "Cookie" }
            if equal(buf, start, "Origin") { return "Origin" }
        case 7:
            if equal(buf, start, "Referer") { return "Referer" }
        case 10:
            if equal(buf, start, "User-Agent") { return "User-Agent" }
            if equal(buf, start, "Connection") { return "Connection" }
        case 12:
            if equal(buf, start, "Content-Type") { return "Content-Type" }
            if equal(buf, start, "X-Request-Id") { return "X-Request-Id" }
        case 13:
            if equal(buf, start, "Authorization") { return "Authorization" }
            if equal(buf, start, "Cache-Control") { return "Cache-Control" }
            if equal(buf, start, "If-None-Match") { return "If-None-Match" }
        case 14:
            if equal(buf, start, "Content-Length") { return "Content-Length" }
        case 15:
            if equal(buf, start, "Accept-Encoding") { return "Accept-Encoding" }
            if equal(buf, start, "Accept-Language") { return "Accept-Language" }
        case 17:
            if equal(buf, start, "Transfer-Encoding") { return "Transfer-Encoding" }
        case 22:
            if equal(buf, start, "X-Parse-Application-Id") { return "X-Parse-Application-Id" }
        default:
            break
        }
        return nil
    }

    /// True when the bytes at `start` equal `name` (the caller has checked the length).
    @inline(__always)
    private static func equal(_ buf: UnsafeRawBufferPointer, _ start: Int, _ name: StaticString) -> Bool {
        guard let base = buf.baseAddress else { return false }
        return memcmp(base + start, name.utf8Start, name.utf8CodeUnitCount) == 0
    }
}
