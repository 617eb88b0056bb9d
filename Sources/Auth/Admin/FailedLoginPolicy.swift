/// How many wrong server-admin passwords one client address may send, and in what window
/// (`admin.maxFailedLogins`, `admin.failedLoginWindowSeconds`).
public struct FailedLoginPolicy: Sendable, Equatable {
    /// Valid values of `maxFailures`.
    public static let maxFailuresRange = 1...1_000_000
    /// Valid values of `windowSeconds` (up to a day).
    public static let windowSecondsRange = 1...86_400

    /// Wrong passwords accepted from one address within a window; the next attempt is refused.
    public var maxFailures: Int
    /// Length of the window, counted from the address's first failed attempt in it.
    public var windowSeconds: Int

    /// A policy; the defaults refuse the 11th wrong password within a minute.
    public init(maxFailures: Int = 10, windowSeconds: Int = 60) {
        self.maxFailures = maxFailures
        self.windowSeconds = windowSeconds
    }
}
