import HTTP

/// A Parse handler: gets the resolved request, returns the answer or throws a `ParseError`.
typealias RouteHandler = @Sendable (ParseContext) throws -> ParseReply

/// How a route treats credentials and the read-only master key.
struct RouteOptions: Sendable {
    /// Master key (or read-only master) required; otherwise 403 "unauthorized: master key is required".
    var masterOnly = false
    /// The 119 message for the read-only master key; nil when the route is a read.
    var readOnlyDenial: String?
    /// Whether `/batch` may target it.
    var batchable = false
}

/// The Parse API's own route table (paths relative to the mount). It is matched after body parsing and
/// the `_method` override, which is why it is separate from the HTTP router (spec §1.3 processing order).
struct RouteTable: Sendable {
    struct Entry: Sendable {
        let method: HTTPMethod
        let segments: [Segment]
        let pattern: String
        let options: RouteOptions
        let handler: RouteHandler
    }

    enum Segment: Sendable, Equatable {
        case literal(String)
        case parameter(String)
    }

    private(set) var entries: [Entry] = []

    mutating func add(_ method: HTTPMethod, _ pattern: String, _ options: RouteOptions = RouteOptions(),
                      _ handler: @escaping RouteHandler) {
        let segs = pattern.split(separator: "/").map { s -> Segment in
            s.hasPrefix(":") ? .parameter(String(s.dropFirst())) : .literal(String(s))
        }
        entries.append(Entry(method: method, segments: segs, pattern: pattern, options: options, handler: handler))
    }

    /// The best route for a method and decoded path segments: literals beat parameters.
    func match(_ method: HTTPMethod, _ path: [String]) -> (Entry, [String: String])? {
        var best: (Entry, [String: String], Int)?
        for e in entries where e.method == method && e.segments.count == path.count {
            var params: [String: String] = [:]
            var score = 0
            var ok = true
            for (seg, value) in zip(e.segments, path) {
                switch seg {
                case .literal(let l):
                    if l != value { ok = false } else { score += 1 }
                case .parameter(let name):
                    params[name] = value
                }
                if !ok { break }
            }
            if ok, best.map({ score > $0.2 }) ?? true { best = (e, params, score) }
        }
        return best.map { ($0.0, $0.1) }
    }
}
