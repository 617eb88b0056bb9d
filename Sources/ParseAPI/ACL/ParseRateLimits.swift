import HTTP

/// Parse's use of the HTTP rate limiter (spec §3.8). Parse counts after credentials are resolved, since
/// its `user` and `session` zones and the master-key exemption depend on them, so it calls the limiter
/// itself rather than through group middleware.
extension RateLimitRule {
    /// The built-in rule: credential-checking routes, 60 requests per 60 s per client address.
    static let builtIn: [RateLimitRule] = ["/login", "/verifyPassword", "/loginAs", "/requestPasswordReset",
                                           "/verificationEmailRequest"].map {
        RateLimitRule(path: $0, windowSeconds: 60, count: 60)
    }
}

extension RateLimiter {
    /// Throws 429 (code 100, the rule's message) when any matching rule is over its count. `path` is
    /// relative to the mount; the address is resolved only when a rule matches the path.
    func check(path: String, method: String, caller: Caller, clientAddress: @autoclosure () -> String) throws {
        let refusal = check(path: path, method: method,
                            subject: RateLimitSubject(clientAddress: clientAddress(), user: caller.userId,
                                                      session: caller.sessionId, isPrivileged: caller.readsAsMaster))
        if let refusal { throw ParseError(100, refusal.rule.message, status: 429) }
    }
}
