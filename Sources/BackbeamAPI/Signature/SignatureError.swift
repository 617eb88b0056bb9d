/// Why a request failed the signature checks of §3.4 (steps 1-8), in the order they run.
public enum SignatureError: Error, Sendable, Equatable {
    /// Step 1: `key` absent or empty.
    case missingApiKey
    /// Step 2: `nonce` absent or empty.
    case missingNonce
    /// Step 2: `nonce` outside the accepted length range.
    case invalidNonceLength
    /// Step 3: `signature` absent or empty.
    case missingSignature
    /// Step 4: `time` absent, empty, or not a decimal integer of at most 16 digits.
    case missingTime
    /// Step 5: `time` further from the server clock than the window.
    case expiredTime
    /// Step 6: `key` is not a key of this project and environment.
    case invalidApiKey
    /// Step 7: the signature does not match, with the raw path nor with the decoded one.
    case invalidSignature
    /// Step 8: the nonce was already accepted within the window (a replay).
    case replayedNonce
    /// Step 8 could not remember the nonce: the replay cache is at its bound even after dropping every
    /// expired entry. Refusing is the only safe answer (forgetting a live nonce would admit a replay).
    case replayCacheFull

    /// The wire status (§3.4, §12).
    public var status: BackbeamStatus {
        switch self {
        case .missingApiKey: return .missingApiKey
        case .missingNonce: return .missingNonce
        case .invalidNonceLength, .replayedNonce: return .invalidNonce
        case .missingSignature: return .missingSignature
        case .missingTime: return .missingTime
        case .expiredTime: return .expiredTime
        case .invalidApiKey: return .invalidApiKey
        case .invalidSignature: return .invalidSignature
        case .replayCacheFull: return .serviceUnavailable
        }
    }

    /// The Backbeam error answered (400, or 503 for a full replay cache). The message never contains the
    /// expected signature or the canonical string.
    public var backbeamError: BackbeamError {
        switch self {
        case .invalidNonceLength: return BackbeamError(.invalidNonce, "The nonce parameter has an invalid length")
        case .replayedNonce: return BackbeamError(.invalidNonce, "The nonce parameter was already used")
        default: return BackbeamError(status)
        }
    }
}
