import HTTP

/// Where a request is addressed (§1.4): the project and environment, and the API path the routes and the
/// signature see (after removal of a `/backbeam/<project>/<env>` prefix).
struct APITarget {
    /// The project name, nil when nothing names one.
    var project: String?
    /// The environment.
    var env: BackbeamEnvironment?
    /// The path after the prefix, still percent-encoded as received (the signature's `path`).
    var rawPath: String

    /// The mount of the path-prefix form.
    static let prefix = "/backbeam"
    private static let prefixWithSlash = Array((prefix + "/").utf8)

    /// Resolves, in order: the path prefix `/backbeam/<project>/<env>/...`, the Host header
    /// `api-<env>-<project>.<domain>[:port]` (`X-Forwarded-Host` when trusted), the configured default.
    static func resolve(_ request: HTTPRequest, config: BackbeamConfig) -> APITarget {
        let raw = request.rawPath
        if raw.utf8.starts(with: prefixWithSlash) || raw == prefix {
            let parts = raw.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
            // "", "backbeam", project, env, rest...
            guard parts.count >= 4 else { return APITarget(project: nil, env: nil, rawPath: "/") }
            let project = String(decoding: parts[2], as: UTF8.self)
            let env = BackbeamEnvironment(rawValue: String(decoding: parts[3], as: UTF8.self))
            let rest = parts.dropFirst(4).map { String(decoding: $0, as: UTF8.self) }
            let path = "/" + rest.joined(separator: "/")
            return APITarget(project: BackbeamConfig.isValidProjectName(project) ? project : nil, env: env, rawPath: path)
        }
        var host = request.headers["Host"]
        if config.trustForwardedHost, let forwarded = request.headers["X-Forwarded-Host"] {
            host = forwarded.split(separator: ",").first.map { String($0).trimmingSpaces() } ?? host
        }
        if let host, let (project, env) = parseHost(host) {
            return APITarget(project: project, env: env, rawPath: raw)
        }
        return APITarget(project: config.defaultProject, env: config.defaultEnv, rawPath: raw)
    }

    /// `api-<env>-<project>.<any domain>[:port]` → (project, env): lower-cased, port stripped, first DNS
    /// label, prefix `api-`, then the environment token and the rest of the label as the project (which may
    /// contain `-`). Nil when the host does not have that form (`web-...`, `localhost`, an address).
    ///
    /// Read on the UTF-8 bytes: every request of the API passes here, and lower-casing the header and
    /// walking it by Characters cost more than the rest of the routing together.
    static func parseHost(_ header: String) -> (String, BackbeamEnvironment)? {
        var header = header
        return header.withUTF8 { bytes -> (String, BackbeamEnvironment)? in
            // The first label ends at the first "." or ":"; an IPv6 literal ("[...") is never a match.
            var end = 0
            while end < bytes.count, bytes[end] != UInt8(ascii: "."), bytes[end] != UInt8(ascii: ":") { end += 1 }
            // "api-" + env (3) + "-" + at least one character of project.
            guard end >= 9, lower(bytes[0]) == UInt8(ascii: "a"), lower(bytes[1]) == UInt8(ascii: "p"),
                  lower(bytes[2]) == UInt8(ascii: "i"), bytes[3] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-") else {
                return nil
            }
            let env: BackbeamEnvironment
            switch (lower(bytes[4]), lower(bytes[5]), lower(bytes[6])) {
            case (UInt8(ascii: "d"), UInt8(ascii: "e"), UInt8(ascii: "v")): env = .dev
            case (UInt8(ascii: "p"), UInt8(ascii: "r"), UInt8(ascii: "o")): env = .pro
            default: return nil
            }
            var project: [UInt8] = []
            project.reserveCapacity(end - 8)
            for i in 8..<end { project.append(lower(bytes[i])) }
            let name = String(decoding: project, as: UTF8.self)
            guard BackbeamConfig.isValidProjectName(name) else { return nil }
            return (name, env)
        }
    }

    /// ASCII lower case of one byte.
    private static func lower(_ b: UInt8) -> UInt8 {
        b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z") ? b | 0x20 : b
    }
}
