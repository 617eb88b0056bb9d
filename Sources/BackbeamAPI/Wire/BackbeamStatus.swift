/// Every `status` string the Backbeam API answers with (spec §12).
///
/// The raw value is the exact wire text. The SDKs decide success by this string, not by the HTTP status
/// (the JavaScript SDK ignores the HTTP status entirely), so a response's `status` must be one of these.
public enum BackbeamStatus: String, Sendable, CaseIterable {
    /// The request succeeded.
    case success = "Success"
    /// Signup or login awaiting email confirmation (mandatory mode); a success, without `auth`.
    case pendingValidation = "PendingValidation"
    /// Social signup: a success (returning or linked user). Email signup: an error (address taken).
    case userAlreadyExists = "UserAlreadyExists"

    /// §3.4 step 1: no `key`.
    case missingApiKey = "MissingApiKey"
    /// §3.4 step 2: no `nonce`.
    case missingNonce = "MissingNonce"
    /// §3.4 steps 2 and 8: a nonce of the wrong length, or one already used.
    case invalidNonce = "InvalidNonce"
    /// §3.4 step 3: no `signature`.
    case missingSignature = "MissingSignature"
    /// §3.4 step 4: no `time`, or not a number.
    case missingTime = "MissingTime"
    /// §3.4 step 5: `time` outside the window.
    case expiredTime = "ExpiredTime"
    /// §3.4 step 6: `key` unknown to this project and environment.
    case invalidApiKey = "InvalidApiKey"
    /// §3.4 step 7: the signature does not match.
    case invalidSignature = "InvalidSignature"
    /// §3.4 step 9: `auth` is not a live session.
    case invalidAuthCode = "InvalidAuthCode"

    /// A parameter is malformed, repeated, over a limit or of the wrong form.
    case invalidParameters = "InvalidParameters"
    /// A required parameter is absent (login, verify, social signup).
    case missingParameters = "MissingParameters"
    /// An upload without a `file` part.
    case missingFile = "MissingFile"
    /// BQL that does not parse, exceeds a limit or uses an operator the field does not take.
    case invalidQuery = "InvalidQuery"
    /// An unknown, used or expired verification or reset code.
    case invalidCode = "InvalidCode"
    /// An image whose header declares more pixels than the resizer accepts.
    case imageTooLarge = "ImageTooLarge"
    /// A social identity already linked to another user.
    case identityAlreadyLinked = "IdentityAlreadyLinked"

    /// Twitter refused the credentials or could not be reached (the JS test suite expects this name).
    case twitterError = "TwitterError"
    /// Facebook refused the credentials or could not be reached.
    case facebookError = "FacebookError"
    /// Google+ refused the credentials or could not be reached.
    case googlePlusError = "GooglePlusError"
    /// LinkedIn refused the credentials or could not be reached.
    case linkedInError = "LinkedInError"
    /// GitHub refused the credentials or could not be reached.
    case gitHubError = "GitHubError"

    /// Wrong password, or a credential change without the user's own `auth` (403).
    case invalidCredentials = "InvalidCredentials"

    /// No project matches the path prefix, Host or default (404).
    case projectNotFound = "ProjectNotFound"
    /// An invalid entity id, or an undeclared one under a strict schema (404).
    case entityNotFound = "EntityNotFound"
    /// No object with that id in that entity (404).
    case objectNotFound = "ObjectNotFound"
    /// No user with that email (404).
    case userNotFound = "UserNotFound"
    /// A social provider other than the five supported (404).
    case unknownSocialSignupProvider = "UnknownSocialSignupProvider"
    /// A path under the Backbeam roots that matches no route (404).
    case notFound = "NotFound"

    /// A known path with a method it does not take (405).
    case methodNotAllowed = "MethodNotAllowed"
    /// A body, request line or header section over its limit (413, 414, 431).
    case requestTooLarge = "RequestTooLarge"
    /// An unexpected failure; details only in the log (500).
    case internalError = "InternalError"
    /// A saturated pool (image resizing) or replay cache (503).
    case serviceUnavailable = "ServiceUnavailable"

    /// The HTTP status normally sent with this status (§2.3.2, §12). The few statuses whose HTTP code
    /// depends on the endpoint (`UserAlreadyExists` is 200 for social signup, `RequestTooLarge` is 414
    /// for a long request line and 431 for headers, successes are 201 on creation) are given explicitly
    /// by the caller through `BackbeamError.httpStatus`.
    public var defaultHTTPStatus: Int {
        switch self {
        case .success, .pendingValidation: return 200
        case .invalidCredentials: return 403
        case .projectNotFound, .entityNotFound, .objectNotFound, .userNotFound,
             .unknownSocialSignupProvider, .notFound: return 404
        case .methodNotAllowed: return 405
        case .requestTooLarge: return 413
        case .internalError: return 500
        case .serviceUnavailable: return 503
        default: return 400
        }
    }

    /// The English text sent as `errorMessage` and `message` when the caller gives no more specific one.
    public var defaultMessage: String {
        switch self {
        case .success: return "Success"
        case .pendingValidation: return "The email address has not been verified yet"
        case .userAlreadyExists: return "A user with that identity already exists"
        case .missingApiKey: return "The key parameter is missing"
        case .missingNonce: return "The nonce parameter is missing"
        case .invalidNonce: return "The nonce parameter is invalid or was already used"
        case .missingSignature: return "The signature parameter is missing"
        case .missingTime: return "The time parameter is missing or is not a number"
        case .expiredTime: return "The time parameter is too far from the server time"
        case .invalidApiKey: return "The key parameter is not a key of this project and environment"
        case .invalidSignature: return "The signature parameter is invalid"
        case .invalidAuthCode: return "The auth parameter is not a valid session"
        case .invalidParameters: return "Invalid parameters"
        case .missingParameters: return "Required parameters are missing"
        case .missingFile: return "The request has no file part"
        case .invalidQuery: return "Invalid query"
        case .invalidCode: return "The code is invalid, expired or already used"
        case .imageTooLarge: return "The image is too large to be resized"
        case .identityAlreadyLinked: return "That identity is already linked to another user"
        case .twitterError: return "Twitter rejected the credentials or could not be reached"
        case .facebookError: return "Facebook rejected the credentials or could not be reached"
        case .googlePlusError: return "Google+ rejected the credentials or could not be reached"
        case .linkedInError: return "LinkedIn rejected the credentials or could not be reached"
        case .gitHubError: return "GitHub rejected the credentials or could not be reached"
        case .invalidCredentials: return "Invalid credentials"
        case .projectNotFound: return "Project not found"
        case .entityNotFound: return "Entity not found"
        case .objectNotFound: return "Object not found"
        case .userNotFound: return "User not found"
        case .unknownSocialSignupProvider: return "Unknown social signup provider"
        case .notFound: return "Not found"
        case .methodNotAllowed: return "Method not allowed"
        case .requestTooLarge: return "The request is too large"
        case .internalError: return "Internal error"
        case .serviceUnavailable: return "The service is busy, try again"
        }
    }
}
