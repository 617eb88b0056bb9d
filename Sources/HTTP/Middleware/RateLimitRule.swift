/// Whose requests one counter of a rate-limit rule counts.
public enum RateLimitZone: String, Sendable, CaseIterable {
    /// Per client address (see `ClientAddressResolver`).
    case ip
    /// Per signed-in user; requests without one count per client address.
    case user
    /// Per session; requests without one count per client address.
    case session
    /// One counter for everyone.
    case global
}

/// One rate-limit rule, in Parse Server's shape: at most `count` requests per `windowSeconds` (a fixed
/// window, starting with the first request counted) on the paths matching `path`, per `zone`.
public struct RateLimitRule: Sendable, Equatable {
    /// A path relative to the route group's prefix ("/login"); `*` matches any run of characters,
    /// including `/` ("/classes/*").
    public var path: String
    /// The window's length in seconds.
    public var windowSeconds: Double
    /// Requests allowed per window; the next one is refused.
    public var count: Int
    /// Upper-case method names the rule applies to; nil for every method.
    public var methods: Set<String>?
    /// The refusal's message.
    public var message = "Too many requests."
    /// Whether privileged callers (such as Parse's master key) count too; by default they are exempt.
    public var includePrivileged = false
    /// Whether requests from a loopback address count too; by default they are exempt (internal
    /// requests, as Parse Server calls them).
    public var includeLoopback = false
    /// Whose requests share one counter.
    public var zone = RateLimitZone.ip

    /// A rule for `count` requests per `windowSeconds` on `path`, per client address.
    public init(path: String, windowSeconds: Double, count: Int) {
        self.path = path
        self.windowSeconds = windowSeconds
        self.count = count
    }

    /// Whether the rule has a `*` (and so is matched by walking its pieces, not by one lookup).
    var isGlob: Bool { path.utf8.contains(UInt8(ascii: "*")) }

    /// Glob match of a relative path (`*` spans any characters, including `/`).
    public func matches(_ p: String) -> Bool {
        // Every request checks every glob rule; the usual rule has no `*` and needs no splitting.
        guard isGlob else { return p == path }
        let parts = path.split(separator: "*", omittingEmptySubsequences: false).map(String.init)
        guard parts.count > 1 else { return p == path }
        var rest = Substring(p)
        guard let first = parts.first, rest.hasPrefix(first) else { return false }
        rest = rest.dropFirst(first.count)
        for (i, part) in parts.enumerated().dropFirst() {
            if i == parts.count - 1 { return part.isEmpty || rest.hasSuffix(part) }
            guard let r = rest.range(of: part) else { return false }
            rest = rest[r.upperBound...]
        }
        return true
    }
}

/// Who a rate-limited request comes from, as far as the rules need to know.
public struct RateLimitSubject: Sendable, Equatable {
    /// The client address (usually `ClientAddressResolver.clientAddress(of:)`).
    public var clientAddress: String
    /// The signed-in user, for `.user` rules.
    public var user: String?
    /// The session, for `.session` rules.
    public var session: String?
    /// A privileged caller, exempt from rules without `includePrivileged`.
    public var isPrivileged: Bool

    /// A subject known by its address only, or with the identity an API resolved from its credentials.
    public init(clientAddress: String, user: String? = nil, session: String? = nil, isPrivileged: Bool = false) {
        self.clientAddress = clientAddress
        self.user = user
        self.session = session
        self.isPrivileged = isPrivileged
    }

    /// Whether the client address is the loopback address (127.0.0.1, ::1, or IPv4-mapped 127.x).
    var isLoopback: Bool {
        clientAddress == "127.0.0.1" || clientAddress == "::1" || clientAddress.hasPrefix("::ffff:127.")
    }

    /// The counter key of `zone` for this subject.
    func key(for zone: RateLimitZone) -> String {
        switch zone {
        case .global: return ""
        case .user: return user ?? clientAddress
        case .session: return session ?? clientAddress
        case .ip: return clientAddress
        }
    }
}
