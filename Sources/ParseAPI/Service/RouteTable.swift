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

    /// Routes that can take a request: same method and segment count.
    private struct Shape: Hashable {
        let method: HTTPMethod
        let count: Int
    }

    private(set) var entries: [Entry] = []
    /// Indexes into `entries` by shape, in registration order, so a match looks at a handful of routes
    /// instead of all of them.
    private var byShape: [Shape: [Int]] = [:]

    mutating func add(_ method: HTTPMethod, _ pattern: String, _ options: RouteOptions = RouteOptions(),
                      _ handler: @escaping RouteHandler) {
        let segs = pattern.split(separator: "/").map { s -> Segment in
            s.hasPrefix(":") ? .parameter(String(s.dropFirst())) : .literal(String(s))
        }
        byShape[Shape(method: method, count: segs.count), default: []].append(entries.count)
        entries.append(Entry(method: method, segments: segs, pattern: pattern, options: options, handler: handler))
    }

    /// The best route for a method and decoded path segments: literals beat parameters, and among equals
    /// the first registered wins.
    func match(_ method: HTTPMethod, _ path: [String]) -> (Entry, [String: String])? {
        guard let candidates = byShape[Shape(method: method, count: path.count)] else { return nil }
        var best: (index: Int, score: Int)?
        for index in candidates {
            var score = 0
            var ok = true
            for (seg, value) in zip(entries[index].segments, path) {
                if case .literal(let l) = seg {
                    guard l == value else { ok = false; break }
                    score += 1
                }
            }
            if ok, best.map({ score > $0.score }) ?? true { best = (index, score) }
        }
        guard let best else { return nil }
        let entry = entries[best.index]
        var params: [String: String] = [:]
        for (seg, value) in zip(entry.segments, path) {
            if case .parameter(let name) = seg { params[name] = value }
        }
        return (entry, params)
    }
}
