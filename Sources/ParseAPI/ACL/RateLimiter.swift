import Foundation
import Synchronization

/// The built-in rate-limit rule of spec §3.8: the credential-checking routes get 60 requests per 60 s
/// per client address; loopback and the master key are exempt.
final class RateLimiter: Sendable {
    static let limitedRoutes: Set<String> = ["login", "verifyPassword", "loginAs", "requestPasswordReset",
                                             "verificationEmailRequest"]
    static let window: TimeInterval = 60
    static let limit = 60

    private struct Bucket { var start: TimeInterval; var count: Int }
    private let buckets = Mutex<[String: Bucket]>([:])

    func check(_ ctx: ParseContext, segments: [String], rules: ParseConfig) throws {
        guard segments.count == 1, let route = segments.first, Self.limitedRoutes.contains(route),
              !ctx.caller.readsAsMaster else { return }
        let address = ctx.app.clientAddress(ctx.http)
        // Internal (loopback) requests are not limited, as in Parse Server (includeInternalRequests: false).
        if address == "127.0.0.1" || address == "::1" || address.hasPrefix("::ffff:127.") { return }
        let now = Date().timeIntervalSince1970
        let allowed = buckets.withLock { map -> Bool in
            if map.count > 100_000 { map = map.filter { now - $0.value.start < Self.window } }
            var b = map[address] ?? Bucket(start: now, count: 0)
            if now - b.start >= Self.window { b = Bucket(start: now, count: 0) }
            b.count += 1
            map[address] = b
            return b.count <= Self.limit
        }
        if !allowed { throw ParseError.tooManyRequests }
    }
}
