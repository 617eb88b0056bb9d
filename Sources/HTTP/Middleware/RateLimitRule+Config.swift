import Core

extension RateLimitRule {
    /// Reads rules written as Parse Server writes them: a list (or a single object, or either as JSON text,
    /// the environment's form) of `{requestPath, requestTimeWindow (ms), requestCount, requestMethods?,
    /// errorResponseMessage?, includeMasterKey?, includeInternalRequests?, zone?}`. Errors name `key`.
    public static func parse(_ value: JSON, key: String) throws -> [RateLimitRule] {
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
            rule.includePrivileged = o["includeMasterKey"]?.boolValue ?? false
            rule.includeLoopback = o["includeInternalRequests"]?.boolValue ?? false
            if let z = o["zone"]?.stringValue {
                guard let zone = RateLimitZone(rawValue: z) else { throw ConfigError(key: key, reason: "unknown zone \(z)") }
                rule.zone = zone
            }
            return rule
        }
    }
}
