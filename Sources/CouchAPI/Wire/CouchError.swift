import Core

/// A failure answered in CouchDB's wire format: an HTTP status and the body
/// `{"error":"{error}","reason":"{reason}"}` (spec §2.6).
///
/// Clients and their test suites compare `error` and `reason` literally, so the catalogue in
/// `CouchError+Catalog.swift` spells them exactly as CouchDB 3.3 does. Internal causes (SQL errors, file
/// paths) never go into `reason`; they go to the log.
public struct CouchError: Error, Sendable, Hashable, CustomStringConvertible {
    /// HTTP status code.
    public let status: Int
    /// The `error` member: a short code such as `bad_request` or `conflict`.
    public let error: String
    /// The `reason` member: the human-readable text.
    public let reason: String

    /// An error with the given status, code and reason.
    public init(status: Int, error: String, reason: String) {
        self.status = status
        self.error = error
        self.reason = reason
    }

    /// `{"error":…,"reason":…}` as an object, for embedding in per-document results of `_bulk_docs` and
    /// `_bulk_get` (which add `id` and `rev` around these two members).
    public var members: JSONObject {
        var object = JSONObject()
        object["error"] = .string(error)
        object["reason"] = .string(reason)
        return object
    }

    /// The response body: compact JSON followed by one `\n` (§2.4). Strings are escaped minimally by
    /// Core's serializer (`"`, `\` and control characters only; `/` and non-ASCII written raw).
    public var body: [UInt8] { CouchJSON.render(.object(members)) }

    /// `status error: reason`, for logs and test failures.
    public var description: String { "\(status) \(error): \(reason)" }
}
