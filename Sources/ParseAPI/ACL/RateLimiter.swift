import Core
import Foundation
import Synchronization

/// One rate-limit rule in Parse Server's shape (spec §3.8).
struct RateLimitRule: Sendable {
    var path: String            // glob relative to the mount, `*` matches anything ("/classes/*")
    var windowSeconds: Double
    var count: Int
    var methods: Set<String>?
    var message = "Too many requests."
    var includeMasterKey = false
    var includeInternalRequests = false
    var zone = "ip"             // ip | user | session | global

    /// The built-in rule: credential-checking routes, 60 requests per 60 s per client address.
    static let builtIn: [RateLimitRule] = ["/login", "/verifyPassword", "/loginAs", "/requestPasswordReset",
                                           "/verificationEmailRequest"].map {
        RateLimitRule(path: $0, windowSeconds: 60, count: 60)
    }

    static func parse(_ value: JSON, key: String) throws -> [RateLimitRule] {
        var v = value
        if let s = value.stringValue, let parsed = try? JSONParser.parse(s) { v = parsed }
        let list = v.arrayValue ?? (v.objectValue != nil ? [v] : nil)
        guard let items = list else { throw ConfigError(key: key, reason: "must be a list of rules") }
        return try items.map { item in
            guard let o = item.objectValue, let path = o["requestPath"]?.stringValue,
                  let window = o["requestTimeWindow"]?.doubleValue, window > 0,
                  let count = o["requestCount"]?.int64Value, count >= 0 else {
                throw ConfigError(key: key, reason: "each rule needs requestPath, requestTimeWindow (ms) and requestCount")
            }
            var rule = RateLimitRule(path: path, windowSeconds: window / 1000, count: Int(count))
            if let m = o["requestMethods"] {
                let names = m.arrayValue?.compactMap(\.stringValue) ?? m.stringValue.map { [$0] } ?? []
                rule.methods = Set(names.map { $0.uppercased() })
            }
            if let msg = o["errorResponseMessage"]?.stringValue { rule.message = msg }
            rule.includeMasterKey = o["includeMasterKey"]?.boolValue ?? false
            rule.includeInternalRequests = o["includeInternalRequests"]?.boolValue ?? false
            if let z = o["zone"]?.stringValue {
                guard ["ip", "user", "session", "global"].contains(z) else { throw ConfigError(key: key, reason: "unknown zone \(z)") }
                rule.zone = z
            }
            return rule
        }
    }

    /// Glob match over the relative path (`*` spans any characters, including `/`).
    func matches(_ p: String) -> Bool {
        // Every request checks every rule; the usual rule has no `*` and needs no splitting.
        guard path.utf8.contains(UInt8(ascii: "*")) else { return p == path }
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

/// Fixed-window counters per rule and zone key.
final class RateLimiter: Sendable {
    let rules: [RateLimitRule]
    private struct Bucket { var start: Double; var count: Int }
    private let buckets = Mutex<[String: Bucket]>([:])
    /// Rules without `*`, by their exact path; and the indexes of the others. Every request is checked, and
    /// the usual rules name one path each, so one lookup finds them instead of a walk over every rule.
    private let exactRules: [String: [Int]]
    private let globRules: [Int]

    init(rules: [RateLimitRule]) {
        self.rules = rules
        var exact: [String: [Int]] = [:]
        var glob: [Int] = []
        for (index, rule) in rules.enumerated() {
            if rule.path.utf8.contains(UInt8(ascii: "*")) { glob.append(index) } else { exact[rule.path, default: []].append(index) }
        }
        exactRules = exact
        globRules = glob
    }

    /// Throws 429 (code 100) when any matching rule is over its count. `path` is relative to the mount.
    func check(path: String, method: String, caller: Caller, clientAddress: String) throws {
        var candidates = exactRules[path] ?? []
        for index in globRules where rules[index].matches(path) { candidates.append(index) }
        guard !candidates.isEmpty else { return }
        candidates.sort()
        let loopback = clientAddress == "127.0.0.1" || clientAddress == "::1" || clientAddress.hasPrefix("::ffff:127.")
        for index in candidates {
            let rule = rules[index]
            if let methods = rule.methods, !methods.contains(method) { continue }
            if caller.readsAsMaster && !rule.includeMasterKey { continue }
            // Internal (loopback) requests are not limited unless the rule says so, as in Parse Server.
            if loopback && !rule.includeInternalRequests { continue }
            let zoneKey: String
            switch rule.zone {
            case "global": zoneKey = ""
            case "user": zoneKey = caller.userId ?? clientAddress
            case "session": zoneKey = caller.sessionId ?? clientAddress
            default: zoneKey = clientAddress
            }
            let key = "\(index)|\(zoneKey)"
            let now = Date().timeIntervalSince1970
            let allowed = buckets.withLock { map -> Bool in
                if map.count > 100_000 { map = map.filter { now - $0.value.start < 3600 } }
                var b = map[key] ?? Bucket(start: now, count: 0)
                if now - b.start >= rule.windowSeconds { b = Bucket(start: now, count: 0) }
                b.count += 1
                map[key] = b
                return b.count <= rule.count
            }
            if !allowed { throw ParseError(100, rule.message, status: 429) }
        }
    }
}
