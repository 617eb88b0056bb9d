/// A failure answered in Parse's wire format.
///
/// Most failures are Parse errors with a body `{"code":N,"error":"..."}` whose HTTP status follows Parse
/// Server's mapping (code 1 -> 500, 101 -> 404, everything else 400). A few answers are not Parse errors
/// at all (`{"error":"unauthorized"}` with 403, the 413 body): those carry `plainBody`.
struct ParseError: Error, Sendable, Equatable {
    /// The Parse error code (meaningless when `plainBody` is set).
    let code: Int
    /// The message, shown to clients verbatim.
    let message: String
    /// HTTP status to send.
    let status: Int
    /// True for the non-Parse bodies of spec §2.8, which have no `code`.
    let plainBody: Bool

    init(_ code: Int, _ message: String, status: Int? = nil) {
        self.code = code
        self.message = message
        self.plainBody = false
        if let status {
            self.status = status
        } else {
            // Parse Server's handleParseErrors mapping.
            switch code {
            case 1: self.status = 500
            case 101: self.status = 404
            default: self.status = 400
            }
        }
    }

    private init(plain message: String, status: Int) {
        self.code = 0
        self.message = message
        self.status = status
        self.plainBody = true
    }

    /// 403 `{"error":"unauthorized"}`: missing or wrong application id, client key rule, master key IP rule.
    static let unauthorized = ParseError(plain: "unauthorized", status: 403)
    /// 403 for master-key-only routes called without it.
    static let masterKeyRequired = ParseError(plain: "unauthorized: master key is required", status: 403)
    /// 413 for bodies over `maxUploadSize` (exactly what Parse Server sends; no `code`).
    static let entityTooLarge = ParseError(plain: "request entity too large", status: 413)

    /// 500 with the generic message; the cause goes to the log only.
    static let internalError = ParseError(1, "Internal server error.")
    static let objectNotFound = ParseError(101, "Object not found.")
    static let invalidSessionToken = ParseError(209, "Invalid session token")
    static let invalidJSON = ParseError(107, "Invalid JSON body.")
    static let unknownRoute = ParseError(108, "Unknown route.", status: 404)
    static let duplicateRequest = ParseError(159, "Duplicate request")
    static let tooManyRequests = ParseError(100, "Too many requests.", status: 429)

    static func invalidClassName(_ name: String) -> ParseError {
        // The trailing space is part of Parse Server's message; clients and ported tests compare it.
        ParseError(103, "Invalid classname: \(name), classnames can only have alphanumeric characters and _, "
            + "and must start with an alpha character ")
    }

    static func readOnly(_ operation: String) -> ParseError {
        ParseError(119, "read-only masterKey isn't allowed to perform the \(operation) operation.")
    }

    /// The body for batch items: plain bodies become `{code:119, error}` so every item error has a code.
    var itemCode: Int { plainBody ? 119 : code }
}
