#if canImport(Glibc)
import Glibc
#endif
/// One registered route after compilation. A class: every request's `RouteMatch` refers to its route, and
/// copying a struct of these fields (strings, a closure, an array) retained each of them at every copy.
final class CompiledRoute: Sendable {
    let method: HTTPMethod
    let pattern: String
    let maxBodyBytes: Int?
    let handler: Handler
    /// The handler runs on the I/O thread that read the request (see `RouteGroup.on(_:_:runsOnIOThread:_:)`).
    let runsOnIOThread: Bool
    /// Tried on the I/O thread before the hand-off to a worker (see `IOThreadAttempt`).
    let attempt: IOThreadAttempt?
    /// Lowers `maxBodyBytes` per request from its head (see `BodyLimitRule`).
    let bodyLimit: BodyLimitRule?
    /// Names of the `:param` segments, in path order.
    let parameterNames: [String]

    init(method: HTTPMethod, pattern: String, maxBodyBytes: Int?, handler: @escaping Handler, runsOnIOThread: Bool,
         attempt: IOThreadAttempt?, bodyLimit: BodyLimitRule? = nil, parameterNames: [String]) {
        self.method = method
        self.pattern = pattern
        self.maxBodyBytes = maxBodyBytes
        self.handler = handler
        self.runsOnIOThread = runsOnIOThread
        self.attempt = attempt
        self.bodyLimit = bodyLimit
        self.parameterNames = parameterNames
    }
}

/// A node of a group's segment tree. Built once by `RouteTable.init` and never mutated afterwards, which is
/// why sharing it across threads is safe.
final class RouteNode: @unchecked Sendable {
    var literals: [String: RouteNode] = [:]
    var parameter: RouteNode?
    /// Routes whose pattern ends with `*` at this depth, in registration order.
    var wildcardRoutes: [CompiledRoute] = []
    /// Routes whose pattern ends exactly here, in registration order.
    var routes: [CompiledRoute] = []

    func insert(_ route: CompiledRoute, segments: ArraySlice<Substring>) {
        guard let first = segments.first else {
            if !routes.contains(where: { $0.method == route.method }) { routes.append(route) }
            return
        }
        if first == "*" && segments.count == 1 {
            if !wildcardRoutes.contains(where: { $0.method == route.method }) { wildcardRoutes.append(route) }
            return
        }
        let child: RouteNode
        if first.hasPrefix(":") {
            if let existing = parameter {
                child = existing
            } else {
                child = RouteNode()
                parameter = child
            }
        } else {
            let key = String(first)
            if let existing = literals[key] {
                child = existing
            } else {
                child = RouteNode()
                literals[key] = child
            }
        }
        child.insert(route, segments: segments.dropFirst())
    }
}

/// A route group after compilation.
final class CompiledGroup: Sendable {
    let prefix: String
    /// `prefix` as UTF-8 bytes, for `relativePath`.
    private let prefixBytes: [UInt8]
    let host: HostPattern?
    let limits: Limits?
    let cors: CORSPolicy?
    let errorRenderer: ErrorRenderer?
    /// Runs before every handler of the group; `hasMiddleware` saves groups without any even the loop.
    let middleware: [Middleware]
    let hasMiddleware: Bool
    /// Whether requests get a decoded `path` (see `Router.group`).
    let decodesPath: Bool
    /// Whether the access log shows the query string of this group's requests.
    let logsQuery: Bool
    /// Whether requests get their `queryParameters` (see `Router.group`).
    let parsesQuery: Bool
    let root: RouteNode
    /// Routes made only of literal segments, by their path without the leading "/" (segments joined by
    /// "/"): the common case is then one dictionary lookup instead of a tree walk.
    let staticRoutes: [String: [CompiledRoute]]
    /// True when the group's only routes are `*` routes at its root (an API that routes by itself, such as
    /// Parse): every path below the prefix then goes to them without walking the tree.
    let onlyRootWildcard: Bool
    /// The methods of the group's routes other than its root `*` routes. A method outside it (HEAD: nor GET)
    /// can only be taken by a root `*` route, whatever the path: Backbeam's GETs (its only other routes are
    /// the uploads' POST and PUT) then skip the walk as well.
    let otherRouteMethods: Set<HTTPMethod>

    init(spec: Router.GroupSpec) {
        prefix = spec.prefix
        prefixBytes = Array(spec.prefix.utf8)
        host = spec.host.map(HostPattern.init)
        limits = spec.limits
        cors = spec.cors
        errorRenderer = spec.errorRenderer
        middleware = spec.middleware
        hasMiddleware = !spec.middleware.isEmpty
        decodesPath = spec.decodesPath
        logsQuery = spec.logsQuery
        parsesQuery = spec.parsesQuery
        let root = RouteNode()
        var staticRoutes: [String: [CompiledRoute]] = [:]
        var otherRouteMethods: Set<HTTPMethod> = []
        for route in spec.routes {
            let segments = route.pattern.split(separator: "/", omittingEmptySubsequences: true)
            if segments != ["*"] { otherRouteMethods.insert(route.method) }
            let names = segments.filter { $0.hasPrefix(":") }.map { String($0.dropFirst()) }
            let compiled = CompiledRoute(method: route.method, pattern: route.pattern,
                                         maxBodyBytes: route.maxBodyBytes, handler: route.handler,
                                         runsOnIOThread: route.runsOnIOThread, attempt: route.attempt,
                                         bodyLimit: route.bodyLimit, parameterNames: names)
            root.insert(compiled, segments: segments[...])
            if !segments.contains(where: { $0.hasPrefix(":") || $0 == "*" }) {
                let key = segments.joined(separator: "/")
                if !(staticRoutes[key]?.contains { $0.method == route.method } ?? false) {
                    staticRoutes[key, default: []].append(compiled)
                }
            }
        }
        self.root = root
        self.staticRoutes = staticRoutes
        onlyRootWildcard = !root.wildcardRoutes.isEmpty && root.routes.isEmpty && root.literals.isEmpty
            && root.parameter == nil
        self.otherRouteMethods = otherRouteMethods
    }

    /// Whether only a root `*` route can take `method` in this group (see `otherRouteMethods`).
    func onlyRootWildcardTakes(_ method: HTTPMethod) -> Bool {
        if onlyRootWildcard { return true }
        if otherRouteMethods.contains(method) { return false }
        return method != .head || !otherRouteMethods.contains(.get)
    }

    /// The part of `rawPath` below this group's prefix, or nil when the prefix does not match.
    func relativePath(_ rawPath: String) -> Substring? {
        if prefix.isEmpty { return Substring(rawPath) }
        // Compared and cut on UTF-8 bytes: String.hasPrefix and dropFirst work on Characters, which is
        // slower and, for a prefix followed by a combining mark, not even the same test. Every request
        // tries the groups in turn, so the comparison is a memcmp of the stored prefix bytes.
        // The byte count of a string is stored: most groups are ruled out, or not, without reading a byte.
        guard rawPath.utf8.count >= prefixBytes.count else { return nil }
        let matches = rawPath.utf8.withContiguousStorageIfAvailable(hasPrefix) ?? {
            // A small string (up to 15 bytes, stored inline) lends no storage; `withUTF8` copies it.
            var path = rawPath
            return path.withUTF8(hasPrefix)
        }()
        guard matches else { return nil }
        let bytes = rawPath.utf8
        return Substring(bytes[bytes.index(bytes.startIndex, offsetBy: prefixBytes.count)...])
    }

    /// Whether `bytes` start with the prefix, followed by "/" or nothing (always, for the empty prefix:
    /// `relativePath` takes every path there).
    func hasPrefix(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        if prefixBytes.isEmpty { return true }
        guard bytes.count >= prefixBytes.count else { return false }
        if bytes.count > prefixBytes.count && bytes[prefixBytes.count] != UInt8(ascii: "/") { return false }
        return prefixBytes.withUnsafeBufferPointer { p in
            guard let a = bytes.baseAddress, let b = p.baseAddress else { return p.isEmpty }
            return memcmp(a, b, p.count) == 0
        }
    }

    /// The group's limits applied over the server's: a group may only lower them.
    func effectiveLimits(_ server: Limits) -> Limits {
        guard let limits else { return server }
        var merged = server
        merged.maxRequestTarget = min(server.maxRequestTarget, limits.maxRequestTarget)
        merged.maxHeaderBytes = min(server.maxHeaderBytes, limits.maxHeaderBytes)
        merged.maxHeaderCount = min(server.maxHeaderCount, limits.maxHeaderCount)
        merged.maxBodyBytes = min(server.maxBodyBytes, limits.maxBodyBytes)
        merged.inMemoryBodyThreshold = min(server.inMemoryBodyThreshold, limits.inMemoryBodyThreshold)
        return merged
    }
}

/// All groups, in the order they are tried: host groups first, then by longer prefix first, then in
/// registration order.
final class RouteTable: Sendable {
    let groups: [CompiledGroup]
    let hasHostGroups: Bool
    /// Fully literal routes by their whole path (group prefix included), for paths that no group tried
    /// before theirs could take: `resolve` then answers with one dictionary lookup what the walk over the
    /// groups would answer. Host groups that could come first are listed with the entry and checked.
    let exactRoutes: [String: ExactRoute]

    /// An entry of `exactRoutes`.
    struct ExactRoute: Sendable {
        let group: CompiledGroup
        let routes: [CompiledRoute]
        /// Host groups ordered before `group` whose prefix matches the path: the entry applies only when
        /// none of their host patterns matches the request's host.
        let hostGuards: [CompiledGroup]
    }

    init(groups specs: [Router.GroupSpec]) {
        let compiled = specs.enumerated().map { (offset: $0.offset, group: CompiledGroup(spec: $0.element)) }
        groups = compiled.sorted { lhs, rhs in
            let lhsHost = lhs.group.host != nil, rhsHost = rhs.group.host != nil
            if lhsHost != rhsHost { return lhsHost }
            if lhs.group.prefix.count != rhs.group.prefix.count {
                return lhs.group.prefix.count > rhs.group.prefix.count
            }
            return lhs.offset < rhs.offset
        }.map(\.group)
        hasHostGroups = groups.contains { $0.host != nil }
        exactRoutes = RouteTable.exactIndex(groups)
        var lengths: UInt64 = 0
        var longest = 0
        for path in exactRoutes.keys {
            let length = path.utf8.count
            if length < 64 { lengths |= 1 << UInt64(length) }
            longest = max(longest, length)
        }
        exactLengths = lengths
        exactLongest = longest
    }

    /// The lengths below 64 bytes of the paths in `exactRoutes`, one bit each, and the longest length.
    private let exactLengths: UInt64
    private let exactLongest: Int

    /// One bit per group (in `groups` order, the first 64) whose prefix `rawPath` has: the path's bytes are
    /// read once for all groups instead of once per group. Groups past the 64th are always marked, so
    /// `relativePath` decides for them.
    func prefixMask(_ rawPath: String) -> UInt64 {
        var path = rawPath
        return path.withUTF8 { bytes in
            var mask: UInt64 = groups.count > 64 ? ~0 << 63 : 0
            for index in groups.indices where index < 64 && groups[index].hasPrefix(bytes) {
                mask |= 1 << UInt64(index)
            }
            return mask
        }
    }

    /// Whether `exactRoutes` may hold a path of `length` bytes (false means it holds none).
    func hasExactRoute(ofLength length: Int) -> Bool {
        if length > exactLongest { return false }
        if length >= 64 { return true }
        return exactLengths & (1 << UInt64(length)) != 0
    }

    /// Builds `exactRoutes`. A path is left out (and resolved by the walk) when a group without a host
    /// pattern is ordered before its own and has a matching prefix: that group would be tried first and
    /// might take the path with a parameter or wildcard route, or answer 405.
    private static func exactIndex(_ groups: [CompiledGroup]) -> [String: ExactRoute] {
        var index: [String: ExactRoute] = [:]
        for (position, group) in groups.enumerated() where group.host == nil {
            for (key, routes) in group.staticRoutes {
                let path = group.prefix + "/" + key
                // The static key of exactly this path must be `key` again, or the walk would not find it.
                guard let relative = group.relativePath(path), staticKey(relative) == key else { continue }
                let before = groups[..<position].filter { $0.relativePath(path) != nil }
                guard before.allSatisfy({ $0.host != nil }), index[path] == nil else { continue }
                index[path] = ExactRoute(group: group, routes: routes, hostGuards: before)
            }
        }
        return index
    }

    /// The group whose prefix (and host pattern, when a host is known) matches a target: used to pick the
    /// error renderer and limits before the full route is known.
    func group(forRawPath rawPath: String, host: String?) -> CompiledGroup? {
        let hostName = host.map(HostPattern.hostName)
        for group in groups where group.relativePath(rawPath) != nil {
            if let pattern = group.host {
                guard let hostName, pattern.match(hostName) != nil else { continue }
            }
            return group
        }
        return nil
    }
}
