/// A request that passed steps 1-8 of §3.4.
public struct VerifiedSignature: Sendable, Equatable {
    /// Which form of the path the signature matched (§3.3, path decision).
    public enum PathForm: Sendable, Equatable {
        /// The path exactly as received.
        case raw
        /// The percent-decoded path (the retry).
        case decoded
    }

    /// The shared key that signed the request.
    public var key: String
    /// The accepted nonce, now recorded.
    public var nonce: String
    /// The client time in milliseconds.
    public var time: Int64
    /// The session code, when sent (checked later, step 9, against the store).
    public var auth: String?
    /// The path form that verified.
    public var pathForm: PathForm

    /// A verified request.
    public init(key: String, nonce: String, time: Int64, auth: String?, pathForm: PathForm) {
        self.key = key
        self.nonce = nonce
        self.time = time
        self.auth = auth
        self.pathForm = pathForm
    }
}
