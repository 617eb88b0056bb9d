/// How an endpoint treats the signature and sessions (§3.4, §3.5).
public struct EndpointOptions: Sendable {
    /// Checked with the signature of §3 (false only for file downloads and the HTML pages).
    public var signed: Bool
    /// Establishes a session (`POST /data/user`, `/user/email/*`, `/user/:provider/signup`): an invalid
    /// `auth` is ignored instead of refused (§3.4 step 9).
    public var establishesSession: Bool
    /// The endpoint's answer prepared on the HTTP I/O thread (see `BackbeamDispatcher.attempt`): called
    /// before the signature is checked, for a signed call without `auth`, it must only read (a point read
    /// through the store's `...IfAtHand` methods) and return nil for anything it cannot answer at once
    /// or that is an error; the handler then answers on a worker. A signed endpoint's attempt answers a
    /// JSON body; an unsigned one's a whole response (`BackbeamReply(response:)`).
    public var attempt: EndpointAttempt?

    /// Options; the defaults are a signed endpoint that needs a valid `auth` when one is sent.
    public init(signed: Bool = true, establishesSession: Bool = false, attempt: EndpointAttempt? = nil) {
        self.signed = signed
        self.establishesSession = establishesSession
        self.attempt = attempt
    }
}

/// See `EndpointOptions.attempt`.
public typealias EndpointAttempt = @Sendable (BackbeamCall) -> BackbeamReply?

import HTTP
#if canImport(Glibc)
import Glibc
#endif

/// The handler of one endpoint.
public typealias EndpointHandler = @Sendable (BackbeamCall) throws -> BackbeamReply

/// The route table of §1.4, matched by the effective method (after `_method`) on the path after any
/// `/backbeam/<project>/<env>` prefix. Routes are tried top to bottom; segments match case-sensitively; a
/// trailing slash is an empty last segment (`/data/place/` reads object id `""`).
public final class EndpointTable: @unchecked Sendable {
    struct Entry {
        var pattern: [Segment]
        /// How many `:name` segments the pattern has.
        var parameterCount: Int { pattern.reduce(0) { if case .parameter = $1 { return $0 + 1 } else { return $0 } } }
        var handlers: [(method: String, options: EndpointOptions, handler: EndpointHandler)]
    }

    enum Segment: Equatable {
        /// A literal segment, kept as bytes for comparison.
        case literal([UInt8])
        case parameter(String)
    }

    /// The outcome of matching a request.
    public enum Match {
        /// A route takes it; path parameters by name.
        case route(EndpointHandler, EndpointOptions, PathParameters)
        /// The path exists, not with this method (405 with these in `Allow`).
        case methodNotAllowed([String])
        /// No route (404 `NotFound`).
        case notFound
    }

    /// Written only while the service is built, before the server starts; read-only afterwards.
    private var entries: [Entry] = []
    /// The segment count of each entry's pattern, so that a match looks only at the entries of its
    /// request's count (reading an `Entry` retains its arrays).
    private var segmentCounts: [Int] = []

    init() {}

    /// Registers `handler` for `method` on `pattern` (`/data/:entity/:id`).
    public func on(_ method: String, _ pattern: String, _ options: EndpointOptions = EndpointOptions(),
                   _ handler: @escaping EndpointHandler) {
        let segments: [Segment] = pattern.split(separator: "/", omittingEmptySubsequences: true).map {
            $0.hasPrefix(":") ? .parameter(String($0.dropFirst())) : .literal(Array($0.utf8))
        }
        if let i = entries.firstIndex(where: { $0.pattern == segments }) {
            entries[i].handlers.append((method, options, handler))
        } else {
            entries.append(Entry(pattern: segments, handlers: [(method, options, handler)]))
            segmentCounts.append(segments.count)
        }
    }

    /// Matches `method` on the raw (still percent-encoded) `rawPath`, starting with `/`. Segments are
    /// split before decoding, so an encoded `%2F` stays inside its segment. Compared on the path's bytes:
    /// strings are made only for the parameters of the route that matches.
    public func match(method: String, rawPath: String) -> Match {
        var path = rawPath
        return path.withUTF8 { bytes -> Match in
            // Segment ranges after the leading "/"; a trailing "/" gives an empty last segment. Held in
            // temporary memory sized by the slashes (the path is not split into an array).
            var start = bytes.first == UInt8(ascii: "/") ? 1 : 0
            var slashes = 0
            for b in bytes[start...] where b == UInt8(ascii: "/") { slashes += 1 }
            return withUnsafeTemporaryAllocation(of: Range<Int>.self, capacity: slashes + 1) { storage -> Match in
                var count = 0
                var i = start
                while i <= bytes.count {
                    if i == bytes.count || bytes[i] == UInt8(ascii: "/") {
                        guard count < storage.count else { break }
                        storage.initializeElement(at: count, to: start..<i)
                        count += 1
                        start = i + 1
                    }
                    i += 1
                }
                // Range<Int> is a trivial type: the memory needs no deinitialization.
                let ranges = UnsafeBufferPointer(rebasing: storage[0..<count])
                return match(method: method, bytes: bytes, ranges: ranges)
            }
        }
    }

    private func match(method: String, bytes: UnsafeBufferPointer<UInt8>, ranges: UnsafeBufferPointer<Range<Int>>) -> Match {
        func segment(_ r: Range<Int>) -> String? {
            let raw = UnsafeBufferPointer(rebasing: bytes[r])
            let text = String(decoding: raw, as: UTF8.self)
            return raw.contains(UInt8(ascii: "%")) ? PercentDecoding.decodePath(Substring(text)) : text
        }
        // Escaped segments are rare: found once, so that a literal is otherwise one length check and a
        // memcmp (every request compares the literals of every route of its segment count).
        let escaped = bytes.contains(UInt8(ascii: "%"))
        func literalMatches(_ literal: [UInt8], _ r: Range<Int>) -> Bool {
            let raw = UnsafeBufferPointer(rebasing: bytes[r])
            if escaped && raw.contains(UInt8(ascii: "%")) {
                return segment(r).map { Array($0.utf8) == literal } ?? false
            }
            guard literal.count == raw.count else { return false }
            guard let base = raw.baseAddress, !literal.isEmpty else { return true }
            return literal.withUnsafeBytes { stored in
                guard let start = stored.baseAddress else { return false }
                return memcmp(start, base, raw.count) == 0
            }
        }
        var allowed: [String] = []
        for e in segmentCounts.indices where segmentCounts[e] == ranges.count {
            let entry = entries[e]
            var matches = true
            for k in 0..<ranges.count {
                if case .literal(let literal) = entry.pattern[k], !literalMatches(literal, ranges[k]) {
                    matches = false
                    break
                }
            }
            guard matches else { continue }
            if let found = entry.handlers.first(where: { $0.method == method || (method == "HEAD" && $0.method == "GET") }) {
                var parameters = PathParameters()
                parameters.reserveCapacity(entry.parameterCount)
                for k in 0..<ranges.count {
                    guard case .parameter(let name) = entry.pattern[k] else { continue }
                    guard let value = segment(ranges[k]) else { return .notFound }
                    parameters.append(name, value)
                }
                return .route(found.handler, found.options, parameters)
            }
            for handler in entry.handlers where !allowed.contains(handler.method) { allowed.append(handler.method) }
        }
        guard !allowed.isEmpty else { return .notFound }
        if allowed.contains("GET") && !allowed.contains("HEAD") { allowed.append("HEAD") }
        return .methodNotAllowed(allowed)
    }
}
