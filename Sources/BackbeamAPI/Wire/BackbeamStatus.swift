/// Every `status` string the Backbeam API answers with (spec §12).
///
/// The raw value is the exact wire text. The SDKs decide success by this string, not by the HTTP status
/// (the JavaScript SDK ignores the HTTP status entirely), so a response's `status` must be one of these.
public enum BackbeamStatus: String, Sendable, CaseIterable {
    case success = "Success"
    /// Signup or login awaiting email confirmation (mandatory mode); a success, without `auth`.
    case pendingValidation = "PendingValidation"
    /// Social signup: a success (returning or linked user). Email signup: an error (address taken).
    case userAlreadyExists = "UserAlreadyExists"

    // §3.4, in the order the checks run.
    case missingApiKey = "MissingApiKey"
    case missingNonce = "MissingNonce"
    case invalidNonce = "InvalidNonce"
    case missingSignature = "MissingSignature"
    case missingTime = "MissingTime"
    case expiredTime = "ExpiredTime"
    case invalidApiKey = "InvalidApiKey"
    case invalidSignature = "InvalidSignature"
    case invalidAuthCode = "InvalidAuthCode"

    // Bad input.
    case invalidParameters = "InvalidParameters"
    case missingParameters = "MissingParameters"
    case missingFile = "MissingFile"
    case invalidQuery = "InvalidQuery"
    case invalidCode = "InvalidCode"
    case imageTooLarge = "ImageTooLarge"
    case identityAlreadyLinked = "IdentityAlreadyLinked"

    // Social providers (the JavaScript test suite expects these exact names).
    case twitterError = "TwitterError"
    case facebookError = "FacebookError"
    case googlePlusError = "GooglePlusError"
    case linkedInError = "LinkedInError"
    case gitHubError = "GitHubError"

    case invalidCredentials = "InvalidCredentials"

    // Not found.
    case projectNotFound = "ProjectNotFound"
    case entityNotFound = "EntityNotFound"
    case objectNotFound = "ObjectNotFound"
    case userNotFound = "UserNotFound"
    case unknownSocialSignupProvider = "UnknownSocialSignupProvider"
    case notFound = "NotFound"

    case methodNotAllowed = "MethodNotAllowed"
    case requestTooLarge = "RequestTooLarge"
    case internalError = "InternalError"
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
