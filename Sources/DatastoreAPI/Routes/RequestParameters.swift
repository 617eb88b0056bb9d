import Foundation
import HTTP
import Core

/// The parameters of one request: the query string plus, for a form body, the body's fields.
/// A name present in both comes from the body; within one source the first occurrence wins (§2.1).
struct RequestParameters: Sendable {
    let query: FormParameters
    let form: FormParameters

    /// Reads the form body when there is one. Only `application/x-www-form-urlencoded` (any parameters) or an
    /// absent `Content-Type` is parsed; another type with a non-empty body is refused rather than interpreted.
    init(_ request: HTTPRequest, maxBodyBytes: Int) throws {
        query = request.queryParameters
        guard request.body.count > 0 else { form = FormParameters(); return }
        if let type = request.headers["Content-Type"], !Self.isFormMediaType(type) {
            throw DatastoreAPIError.badRequest("Unsupported Content-Type")
        }
        let bytes: [UInt8]
        do { bytes = try request.body.readAll(limit: maxBodyBytes) } catch { throw DatastoreAPIError.payloadTooLarge }
        do { form = try FormParameters.parse(bytes, plusIsSpace: true) } catch {
            throw DatastoreAPIError.badRequest("Malformed form body")
        }
    }

    /// Whether a `Content-Type` value names `application/x-www-form-urlencoded` (any case, parameters and
    /// surrounding whitespace ignored). On bytes: every `put_delta` carries this header, and the
    /// Character-wise cut, trim and lower-casing were a measurable part of handling one.
    static func isFormMediaType(_ value: String) -> Bool {
        let bytes = value.utf8
        var end = bytes.firstIndex(of: UInt8(ascii: ";")) ?? bytes.endIndex
        var start = bytes.startIndex
        func blank(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 }
        while start < end, blank(bytes[start]) { start = bytes.index(after: start) }
        while end > start, blank(bytes[bytes.index(before: end)]) { end = bytes.index(before: end) }
        let expected = "application/x-www-form-urlencoded".utf8
        guard bytes.distance(from: start, to: end) == expected.count else { return false }
        var index = start
        for byte in expected {
            let candidate = bytes[index]
            let folded = candidate >= 65 && candidate <= 90 ? candidate | 0x20 : candidate
            if folded != byte { return false }
            index = bytes.index(after: index)
        }
        return true
    }

    /// The value of `name` (body first, then query).
    func value(_ name: String) -> String? { form.first(name) ?? query.first(name) }

    /// A required, non-empty parameter.
    func required(_ name: String) throws -> String {
        guard let v = value(name), !v.isEmpty else { throw DatastoreAPIError.badRequest("Missing parameter '\(name)'") }
        return v
    }

    /// A parameter holding JSON text, parsed strictly (duplicate keys and lone surrogates refused, depth capped).
    func json(_ name: String, maxDepth: Int) throws -> JSON? {
        guard let text = value(name) else { return nil }
        var options = JSONParseOptions()
        options.maxDepth = maxDepth
        options.duplicateKeys = .reject
        // The body limit already bounds the text; escapes can make a legal delta's JSON several times its size.
        options.maxBytes = max(options.maxBytes, text.utf8.count)
        JSONRequestLimits.apply(to: &options)
        do { return try JSONParser.parse(text, options: options) } catch {
            throw DatastoreAPIError.badRequest("Invalid JSON in parameter '\(name)'")
        }
    }
}
