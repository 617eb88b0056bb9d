import Core

/// An error as the Backbeam API answers it: a status of §12, an English message and the HTTP status.
///
/// The message is what clients see (`errorMessage` and `message`), so it never carries SQL, file paths,
/// secrets or other users' data (§2.4); internal causes belong in the log.
public struct BackbeamError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The wire status.
    public var status: BackbeamStatus
    /// The human-readable text sent as both `errorMessage` and `message`.
    public var message: String
    /// The HTTP status code (the status's default unless the endpoint says otherwise).
    public var httpStatus: Int

    /// An error with `status`'s default message and HTTP code unless given.
    public init(_ status: BackbeamStatus, _ message: String? = nil, httpStatus: Int? = nil) {
        self.status = status
        self.message = message ?? status.defaultMessage
        self.httpStatus = httpStatus ?? status.defaultHTTPStatus
    }

    /// `Status: message`, for logs and test failures.
    public var description: String { "\(status.rawValue): \(message)" }

    /// The error body of §2.4: `{"status":..,"errorMessage":..,"message":..}`.
    ///
    /// Both message keys carry the same text: the three SDKs read `errorMessage`, while the authors'
    /// open-source server (and tooling written against it) wrote `message`.
    public var body: JSONObject {
        JSONObject([("status", .string(status.rawValue)),
                    ("errorMessage", .string(message)),
                    ("message", .string(message))])
    }

    /// The serialized error body (UTF-8 JSON, not pretty-printed).
    public var bodyBytes: [UInt8] { JSON.object(body).serializedBytes() }
}
