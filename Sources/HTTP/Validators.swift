import Core

/// What tells one version of a representation from another (RFC 9110 8.8): an entity tag and a
/// modification time; and the rules comparing them with a request's preconditions (RFC 9110 13) for
/// conditional GET (`If-None-Match`, `If-Modified-Since` -> 304) and `If-Range`.
public struct Validators: Sendable, Equatable {
    /// The entity tag as sent in `ETag`, quotes included: `"abc"`, or `W/"abc"` for a weak one.
    public var etag: String?
    /// The modification time in whole seconds since 1970, as sent in `Last-Modified`.
    public var lastModified: Int?

    /// Validators made of an entity tag and/or a modification time.
    public init(etag: String? = nil, lastModified: Int? = nil) {
        self.etag = etag
        self.lastModified = lastModified
    }

    /// The strong entity tag for `opaque` (which must not hold `"`): `"opaque"`.
    public static func strongETag(_ opaque: String) -> String {
        "\"" + opaque + "\""
    }

    /// Whether a GET or HEAD can be answered 304: `If-None-Match` lists this entity tag (weak comparison)
    /// or is `*`; without `If-None-Match`, `If-Modified-Since` is not before the modification time. A
    /// date that does not parse is ignored, as RFC 9110 13.1.3 requires. False for other methods.
    public func isNotModified(_ request: HTTPRequest) -> Bool {
        guard request.method == .get || request.method == .head else { return false }
        if let list = request.headers["If-None-Match"] {
            return EntityTagList.contains(list, etag, strong: false)
        }
        guard let lastModified, let since = request.headers["If-Modified-Since"].flatMap(HTTPDate.parse) else {
            return false
        }
        return lastModified <= since
    }

    /// Whether a `Range` may be honoured: true without `If-Range`; with one, only when it names this
    /// representation: the same strong entity tag, or exactly the modification time (RFC 9110 13.1.5).
    /// Otherwise the whole representation is sent, as it changed since the client's partial copy.
    public func rangeApplies(_ request: HTTPRequest) -> Bool {
        guard let condition = request.headers["If-Range"]?.trimmingOWS() else { return true }
        if condition.hasPrefix("\"") || condition.hasPrefix("W/") {
            return EntityTagList.contains(condition, etag, strong: true)
        }
        guard let lastModified, let date = HTTPDate.parse(condition) else { return false }
        return date == lastModified
    }

    /// Adds `ETag` and `Last-Modified`. A 304 (`notModified`) carries `Last-Modified` only without an
    /// entity tag, as RFC 9110 15.4.5 asks of it.
    public func addHeaders(to headers: inout HTTPHeaders, notModified: Bool = false) {
        if let etag { headers.set("ETag", etag) }
        if let lastModified, !notModified || etag == nil {
            headers.set("Last-Modified", HTTPDate.format(epochSeconds: lastModified))
        }
    }
}

/// `#entity-tag` lists of `If-None-Match`, `If-Match` and `If-Range`, matched against one entity tag.
enum EntityTagList {
    /// Whether `list` holds `*` or an entity tag equal to `etag`: by their opaque parts (weak comparison),
    /// or, with `strong`, only when neither is weak. A malformed list matches nothing from the fault on.
    static func contains(_ list: String, _ etag: String?, strong: Bool) -> Bool {
        let own = etag.flatMap { parse(Substring($0).utf8[...]) }
        var rest = Substring(list).utf8[...]
        while true {
            while let b = rest.first, b == UInt8(ascii: ",") || ByteClass.isOWS(b) { rest = rest.dropFirst() }
            guard let first = rest.first else { return false }
            // `*` matches any current representation; it is not an entity tag, so If-Range cannot use it.
            if first == UInt8(ascii: "*") { return !strong }
            guard let tag = parse(rest) else { return false }
            if let own, tag.opaque.elementsEqual(own.opaque), !(strong && (tag.weak || own.weak)) { return true }
            rest = tag.rest
        }
    }

    private typealias Bytes = Substring.UTF8View.SubSequence

    /// `[W/] DQUOTE *etagc DQUOTE` at the start of `bytes`: the weakness, the opaque part and what follows.
    private static func parse(_ bytes: Bytes) -> (weak: Bool, opaque: Bytes, rest: Bytes)? {
        var rest = bytes
        var weak = false
        if rest.starts(with: "W/".utf8) {
            weak = true
            rest = rest.dropFirst(2)
        }
        guard rest.first == UInt8(ascii: "\"") else { return nil }
        rest = rest.dropFirst()
        guard let close = rest.firstIndex(of: UInt8(ascii: "\"")) else { return nil }
        return (weak, rest[..<close], rest[rest.index(after: close)...])
    }
}
