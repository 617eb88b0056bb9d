/// The tunable parts of the checks of §3.4.
public struct SignaturePolicy: Sendable, Equatable {
    /// Largest accepted `|now - time|` in seconds (`backbeam.signatureWindowSeconds`, 300). Five minutes
    /// tolerates phone clock drift while bounding how long nonces must be remembered.
    public var windowSeconds: Int
    /// Accepted nonce lengths in characters: iOS and JS send 40 hex characters, Android and the Ruby
    /// client a 36-character UUID (§3.2).
    public var nonceLengths: ClosedRange<Int>
    /// Most digits in `time` (16 keeps it inside Int64 and far beyond any real millisecond clock).
    public var maxTimeDigits: Int

    /// The defaults of §3.4.
    public init(windowSeconds: Int = 300, nonceLengths: ClosedRange<Int> = 30...42, maxTimeDigits: Int = 16) {
        self.windowSeconds = windowSeconds
        self.nonceLengths = nonceLengths
        self.maxTimeDigits = maxTimeDigits
    }

    /// The window in milliseconds, saturating instead of overflowing on absurd settings.
    public var windowMilliseconds: Int64 {
        let (product, overflow) = Int64(clamping: windowSeconds).multipliedReportingOverflow(by: 1000)
        return overflow ? Int64.max : max(0, product)
    }
}
