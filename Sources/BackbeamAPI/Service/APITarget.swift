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

    /// Resolves, in order: the path prefix `/backbeam/<project>/<env>/...`, the Host header
    /// `api-<env>-<project>.<domain>[:port]` (`X-Forwarded-Host` when trusted), the configured default.
    static func resolve(_ request: HTTPRequest, config: BackbeamConfig) -> APITarget {
        let raw = request.rawPath
        if raw == prefix || raw.utf8.starts(with: (prefix + "/").utf8) {
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
    static func parseHost(_ header: String) -> (String, BackbeamEnvironment)? {
        var host = Substring(header.lowercased())
        if host.hasPrefix("[") { return nil }
        if let colon = host.lastIndex(of: ":") { host = host[..<colon] }
        let label = host.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false).first ?? host
        guard label.hasPrefix("api-") else { return nil }
        let rest = label.dropFirst(4)
        guard let dash = rest.firstIndex(of: "-"), let env = BackbeamEnvironment(rawValue: String(rest[..<dash])) else {
            return nil
        }
        let project = String(rest[rest.index(after: dash)...])
        guard BackbeamConfig.isValidProjectName(project) else { return nil }
        return (project, env)
    }
}
