import Core

/// The signature checks of §3.4, steps 1-8, as a pure function of the request and a clock reading.
///
/// Steps 9 (`auth` against the store) and 10 (Android token headers) need storage and run after this.
public struct SignatureVerifier: Sendable {
    /// Window, nonce lengths and time format.
    public var policy: SignaturePolicy

    /// A verifier with the given policy (the §3.4 defaults unless told).
    public init(policy: SignaturePolicy = SignaturePolicy()) {
        self.policy = policy
    }

    /// Runs steps 1-8 in order and answers the first failure, or the verified request.
    ///
    /// - Parameters:
    ///   - parameters: the decoded, merged parameters (`ParameterDecoder` has refused repeated scalars).
    ///   - method: the effective method (`DELETE` for Android's tunnelled GET).
    ///   - rawPath: the path exactly as received, after removal of a `/backbeam/<project>/<env>` prefix,
    ///     without the query string.
    ///   - now: the server clock in milliseconds since the epoch.
    ///   - secretForKey: the secret of a shared key of this project and environment, nil for any other
    ///     key (a `dev` key on `pro` included).
    ///   - nonces: the replay cache of this project and environment.
    ///
    /// A failure in steps 1-7 records nothing, so its nonce stays usable; the nonce is recorded only once
    /// everything else has passed.
    public func verify(parameters: BackbeamParameters, method: String, rawPath: String, now: Int64,
                       secretForKey: (String) -> String?, nonces: NonceReplayCache) throws(SignatureError) -> VerifiedSignature {
        try verify(parameters: parameters, method: method, rawPath: rawPath, now: now,
                   signingSecretForKey: { secretForKey($0).map(SigningSecret.init) }, nonces: nonces)
    }

    /// `verify` with the secrets already prepared for signing (what the server passes: a project keeps its
    /// key pairs' prepared HMAC keys, so no request sets a key up again).
    public func verify(parameters: BackbeamParameters, method: String, rawPath: String, now: Int64,
                       signingSecretForKey: (String) -> SigningSecret?, nonces: NonceReplayCache) throws(SignatureError) -> VerifiedSignature {
        guard let key = parameters.nonEmptyValue(ascii: "key") else { throw .missingApiKey }
        guard let nonce = parameters.nonEmptyValue(ascii: "nonce") else { throw .missingNonce }
        guard policy.nonceLengths.contains(nonce.utf16.count) else { throw .invalidNonceLength }
        guard let signature = parameters.nonEmptyValue(ascii: "signature") else { throw .missingSignature }
        guard let timeText = parameters.nonEmptyValue(ascii: "time"), let time = parseTime(timeText) else { throw .missingTime }
        // |now - time| on the magnitude of a checked difference: no overflow, and no trap on Int64.min.
        let (difference, overflow) = now.subtractingReportingOverflow(time)
        guard !overflow, difference.magnitude <= UInt64(policy.windowMilliseconds) else { throw .expiredTime }
        guard let secret = signingSecretForKey(key) else { throw .invalidApiKey }

        // The signature's text is compared where it is stored; the MAC and its Base64 live in temporary
        // memory, the canonical string too (one per try).
        var given = signature
        let matched = given.withUTF8 { given -> VerifiedSignature.PathForm? in
            let given = UnsafeRawBufferPointer(given)
            if CanonicalString.withBytes(parameters: parameters, method: method, path: rawPath, {
                secret.matches(given, canonical: $0)
            }) {
                return .raw
            }
            // Path decision of §3.3: clients sign the path as they wrote it, but some HTTP stacks escape it
            // on the way (`/data/pl%61ce`), so a path with `%` gets one retry in decoded form. Both tries
            // need the secret, so the retry opens nothing to a caller without it.
            guard rawPath.utf8.contains(UInt8(ascii: "%")), let decoded = Self.decodePath(rawPath),
                  CanonicalString.withBytes(parameters: parameters, method: method, path: decoded, {
                      secret.matches(given, canonical: $0)
                  }) else { return nil }
            return .decoded
        }
        guard let form = matched else { throw .invalidSignature }

        // The entry lives until the request's time leaves the window: after that step 5 refuses the
        // request anyway, so remembering the nonce longer would buy nothing.
        let (expiresAt, expiryOverflow) = time.addingReportingOverflow(policy.windowMilliseconds)
        switch nonces.record(nonce: nonce, expiresAt: expiryOverflow ? Int64.max : expiresAt, now: now) {
        case .accepted: break
        case .replayed: throw .replayedNonce
        case .full: throw .replayCacheFull
        }
        return VerifiedSignature(key: key, nonce: nonce, time: time, auth: parameters.nonEmptyValue(ascii: "auth"),
                                 pathForm: form)
    }

    /// `time` as an integer: an optional `-` and 1 to `maxTimeDigits` ASCII digits, nothing else.
    func parseTime(_ text: String) -> Int64? {
        var text = text
        let maxDigits = min(policy.maxTimeDigits, 18)
        return text.withUTF8 { bytes -> Int64? in
            let negative = bytes.first == UInt8(ascii: "-")
            let digits = negative ? bytes.dropFirst() : bytes[...]
            guard !digits.isEmpty, digits.count <= maxDigits else { return nil }
            // At most 18 digits, so the value stays below 10^18 and cannot leave Int64.
            var value: Int64 = 0
            for b in digits {
                guard b >= UInt8(ascii: "0"), b <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int64(b - UInt8(ascii: "0"))
            }
            return negative ? -value : value
        }
    }

    /// The percent-decoded path (no `+` rule: `+` is literal in paths); nil for a malformed escape or
    /// bytes that are not UTF-8, in which case there is nothing to retry with.
    static func decodePath(_ path: String) -> String? {
        let bytes = Array(path.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = 0
        while i < bytes.count {
            if bytes[i] == UInt8(ascii: "%") {
                guard i + 2 < bytes.count, let high = Hex.value(bytes[i + 1]),
                      let low = Hex.value(bytes[i + 2]) else { return nil }
                out.append(high << 4 | low)
                i += 3
            } else {
                out.append(bytes[i])
                i += 1
            }
        }
        return String(validating: out, as: UTF8.self)
    }
}
