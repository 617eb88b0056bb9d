#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A route chosen for a request.
struct RouteMatch: Sendable {
    let group: CompiledGroup
    let route: CompiledRoute
    let pathParameters: [String: String]
    let wildcard: String?
    let hostParameters: [String: String]
}

/// The router's verdict on a request head.
enum RouteResolution: Sendable {
    /// A route (possibly GET standing in for HEAD) takes the request.
    case matched(RouteMatch)
    /// An `OPTIONS` request for a path of a group with a CORS policy and no OPTIONS route of its own.
    case preflight(CompiledGroup, methods: [HTTPMethod])
    /// The path exists, but not for this method.
    case methodNotAllowed(CompiledGroup, allowed: [HTTPMethod])
    /// No route; the group whose prefix matched, if any, renders the 404.
    case notFound(CompiledGroup?)
}

extension RouteTable {
    /// Finds the route for `method` on `rawPath` (still percent-encoded, without query). Host groups whose
    /// pattern matches `host` are tried first, then groups by longest prefix. Within a group, literal
    /// segments beat `:param` beat `*`, and a less specific route with the right method beats a more
    /// specific one without it. HEAD falls back to GET.
    func resolve(method: HTTPMethod, host: String?, rawPath: String) -> RouteResolution {
        let hostName = hasHostGroups ? host.map(HostPattern.hostName) : nil
        // Hashing the whole path costs more than the rest of most lookups: paths of a length no entry has
        // skip it.
        if hasExactRoute(ofLength: rawPath.utf8.count), let exact = exactRoutes[rawPath],
           let route = RouteTable.pick(exact.routes, method),
           !exact.hostGuards.contains(where: { guardGroup in
               guard let hostName, let pattern = guardGroup.host else { return false }
               return pattern.match(hostName) != nil
           }) {
            // What the walk below would find: no group before this one takes the path (see `exactIndex`).
            return .matched(RouteMatch(group: exact.group, route: route, pathParameters: [:], wildcard: nil,
                                       hostParameters: [:]))
        }
        var firstGroup: CompiledGroup?
        var pathOwner: (group: CompiledGroup, allowed: [HTTPMethod])?
        let prefixed = prefixMask(rawPath)
        for (index, group) in groups.enumerated() {
            if index < 63 && prefixed & (1 << UInt64(index)) == 0 { continue }
            guard let relative = group.relativePath(rawPath) else { continue }
            var hostParameters: [String: String] = [:]
            if let pattern = group.host {
                guard let hostName, let captures = pattern.match(hostName) else { continue }
                hostParameters = captures
            }
            if firstGroup == nil { firstGroup = group }
            if group.onlyRootWildcardTakes(method), let route = RouteTable.pick(group.root.wildcardRoutes, method) {
                // What the tree walk would give: the wildcard takes the path from its first segment on.
                let rest = RouteTable.droppingLeadingSlashes(relative)
                return .matched(RouteMatch(group: group, route: route, pathParameters: [:],
                                           wildcard: RouteTable.decode(rest), hostParameters: hostParameters))
            }
            if !group.staticRoutes.isEmpty, let key = RouteTable.staticKey(relative), let routes = group.staticRoutes[key],
               let route = RouteTable.pick(routes, method) {
                // A fully literal route matching the whole path outranks every other route of the group.
                return .matched(RouteMatch(group: group, route: route, pathParameters: [:], wildcard: nil,
                                           hostParameters: hostParameters))
            }
            // Split on the bytes: a split on Characters cost about 500 instructions per character of the path.
            let segments = relative.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: true)
                .map { Substring($0) }
            var captures: [Substring] = []
            var found: RouteMatch?
            var allowed: [HTTPMethod] = []
            var sawPath = false
            _ = RouteTable.visit(group.root, segments: segments, index: 0, relative: relative,
                                 captures: &captures) { routes, captured, rest in
                sawPath = true
                if let route = RouteTable.pick(routes, method) {
                    found = RouteMatch(group: group, route: route,
                                       pathParameters: RouteTable.name(captured, route.parameterNames),
                                       wildcard: rest.map(RouteTable.decode), hostParameters: hostParameters)
                    return true
                }
                for route in routes where !allowed.contains(route.method) { allowed.append(route.method) }
                return false
            }
            if let found { return .matched(found) }
            guard sawPath else { continue }
            if allowed.contains(.get) && !allowed.contains(.head) { allowed.append(.head) }
            if method == .options && group.cors != nil {
                return .preflight(group, methods: allowed + [.options])
            }
            if pathOwner == nil { pathOwner = (group, allowed) }
        }
        if let pathOwner { return .methodNotAllowed(pathOwner.group, allowed: pathOwner.allowed) }
        return .notFound(firstGroup)
    }

    /// Depth-first walk in precedence order; `visitor` gets each route list that matches the whole path,
    /// the captured raw parameter values and the wildcard rest, and returns true to stop.
    private static func visit(_ node: RouteNode, segments: [Substring], index: Int, relative: Substring,
                              captures: inout [Substring],
                              visitor: ([CompiledRoute], [Substring], Substring?) -> Bool) -> Bool {
        if index >= segments.count {
            if !node.routes.isEmpty && visitor(node.routes, captures, nil) { return true }
            if !node.wildcardRoutes.isEmpty && visitor(node.wildcardRoutes, captures, "") { return true }
            return false
        }
        let segment = segments[index]
        if !node.literals.isEmpty, let child = node.literals[decode(segment)] {
            if visit(child, segments: segments, index: index + 1, relative: relative, captures: &captures,
                     visitor: visitor) { return true }
        }
        if let child = node.parameter {
            captures.append(segment)
            let stop = visit(child, segments: segments, index: index + 1, relative: relative, captures: &captures,
                             visitor: visitor)
            captures.removeLast()
            if stop { return true }
        }
        if !node.wildcardRoutes.isEmpty {
            return visitor(node.wildcardRoutes, captures, relative[segment.startIndex...])
        }
        return false
    }

    /// `relative` without its leading "/" characters. Read on the bytes when an ASCII byte follows the
    /// slashes (a slash then stands alone as a Character); otherwise by Characters, as before, since a
    /// combining mark would make the last slash part of another Character.
    static func droppingLeadingSlashes(_ relative: Substring) -> Substring {
        let utf8 = relative.utf8
        var index = utf8.startIndex
        while index < utf8.endIndex, utf8[index] == UInt8(ascii: "/") { index = utf8.index(after: index) }
        if index == utf8.endIndex || utf8[index] < 0x80 { return relative[index...] }
        return relative.drop { $0 == "/" }
    }

    /// The static-route key of a relative path ("/a/b" -> "a/b", "" or "/" -> ""), or nil when the path
    /// needs the full walk (percent-escapes, empty segments, trailing slash).
    static func staticKey(_ relative: Substring) -> String? {
        var rest = relative
        if rest.hasPrefix("/") { rest = rest.dropFirst() }
        var previousSlash = false
        for byte in rest.utf8 {
            if byte == UInt8(ascii: "%") { return nil }
            let slash = byte == UInt8(ascii: "/")
            if slash && previousSlash { return nil }
            previousSlash = slash
        }
        if previousSlash { return nil }
        return String(rest)
    }

    private static func pick(_ routes: [CompiledRoute], _ method: HTTPMethod) -> CompiledRoute? {
        if let route = routes.first(where: { $0.method == method }) { return route }
        if method == .head { return routes.first { $0.method == .get } }
        return nil
    }

    private static func name(_ values: [Substring], _ names: [String]) -> [String: String] {
        if names.isEmpty { return [:] }
        var result: [String: String] = [:]
        for (name, value) in zip(names, values) { result[name] = decode(value) }
        return result
    }

    /// Segments were validated when the whole path was decoded, so a failure here cannot happen; the raw
    /// text is kept rather than trapping.
    static func decode(_ segment: Substring) -> String {
        // memchr over the bytes: `utf8.contains` went through the view's index byte by byte, and a root `*`
        // route's rest is most of the path.
        var bytes = segment
        let escaped = bytes.withUTF8 { buffer -> Bool in
            guard let base = buffer.baseAddress else { return false }
            return memchr(base, Int32(UInt8(ascii: "%")), buffer.count) != nil
        }
        if !escaped { return String(segment) }
        return PercentDecoding.decodePath(segment) ?? String(segment)
    }
}
