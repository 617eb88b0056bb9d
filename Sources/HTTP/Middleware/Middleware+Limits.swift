extension Middleware {
    /// Counts each request against `limiter`'s rules, by the group-relative path and per client address
    /// (resolved through `addresses`), and refuses one over a limit with `RequestRefused` (429 with the
    /// rule's message and `Retry-After`). `.user` and `.session` rules count per address here, as no
    /// identity is known before the handler; an API that resolves one calls `RateLimiter.check` itself.
    public static func rateLimit(_ limiter: RateLimiter, addresses: ClientAddressResolver = ClientAddressResolver())
        -> Middleware {
        Middleware { request in
            let path = relativePath(request)
            if let exceeded = limiter.check(path: path, method: request.method.rawValue,
                                            subject: RateLimitSubject(clientAddress: addresses.clientAddress(of: request))) {
                throw RequestRefused(exceeded)
            }
            return nil
        }
    }

    /// Refuses (403, `RequestRefused`) every request whose client address, resolved through `addresses`,
    /// is in none of `ranges`.
    public static func allowOnly(_ ranges: [IPRange], addresses: ClientAddressResolver = ClientAddressResolver(),
                                 message: String = "forbidden") -> Middleware {
        Middleware { request in
            guard IPRange.any(ranges, contains: addresses.clientAddress(of: request)) else {
                throw RequestRefused(status: .forbidden, message: message)
            }
            return nil
        }
    }

    /// The decoded path below the group's prefix, in the form rules are written in: "/" and the
    /// segments joined by "/", so that "//login" and "/login/" meet the rule for "/login".
    static func relativePath(_ request: HTTPRequest) -> String {
        var rest = Substring(request.path)
        if !request.mountPath.isEmpty, rest.utf8.starts(with: request.mountPath.utf8) {
            rest = Substring(rest.utf8.dropFirst(request.mountPath.utf8.count))
        }
        return "/" + rest.split(separator: "/").joined(separator: "/")
    }
}
