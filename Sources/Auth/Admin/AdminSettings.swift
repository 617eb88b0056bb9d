import Core

/// The `admin` section of the configuration: the server admin's name and password and the failed-login
/// limit that protects them.
public struct AdminSettings: Sendable, Equatable {
    /// Every key of the section.
    public static let keys: Set<String> = ["user", "password", "maxFailedLogins", "failedLoginWindowSeconds"]

    /// The admin's name (`admin.user`).
    public var name = "admin"
    /// The configured password (`admin.password`); nil: generated at first start.
    public var password: String?
    /// `admin.maxFailedLogins` and `admin.failedLoginWindowSeconds`.
    public var failedLogins = FailedLoginPolicy()

    /// The defaults.
    public init() {}

    /// Reads and validates the section; throws `ConfigError` naming `admin.<key>`.
    public init(_ section: ConfigSection) throws {
        try section.rejectUnknownKeys(Self.keys)
        name = try section.string("user") ?? name
        // HTTP Basic splits at the first colon, so a name holding one could never log in.
        guard !name.isEmpty, !name.contains(":") else { throw section.fail("user", "must be a non-empty name without ':'") }
        password = try section.string("password")
        let failures = FailedLoginPolicy.maxFailuresRange, window = FailedLoginPolicy.windowSecondsRange
        failedLogins.maxFailures = try section.int("maxFailedLogins", failedLogins.maxFailures,
                                                   min: failures.lowerBound, max: failures.upperBound)
        failedLogins.windowSeconds = try section.int("failedLoginWindowSeconds", failedLogins.windowSeconds,
                                                     min: window.lowerBound, max: window.upperBound)
    }
}
