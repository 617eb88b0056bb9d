/// The parameters of a request, decoded and merged, with the method it stands for.
public struct DecodedParameters: Sendable, Equatable {
    /// The merged parameters (§2.1, §2.2).
    public var parameters: BackbeamParameters
    /// The effective method in upper case: the HTTP method, or `_method` on a GET or POST (§2.1).
    public var effectiveMethod: String
    /// The JSONP callback, already checked against the grammar of §2.3.3; nil without one.
    public var callback: String?

    /// A decoded request.
    public init(parameters: BackbeamParameters, effectiveMethod: String, callback: String? = nil) {
        self.parameters = parameters
        self.effectiveMethod = effectiveMethod
        self.callback = callback
    }
}

/// Turns a request's query string and body into one ordered parameter multimap (§2.1, §2.2, §7.3).
///
/// Pure and synchronous: the HTTP layer hands in the bytes (and the multipart fields it split), this
/// returns the parameters or a typed error, and nothing here knows about sockets or storage.
public struct ParameterDecoder: Sendable {
    /// The bounds checked while decoding.
    public var limits: ParameterLimits

    /// A decoder with the given limits (the §2.5 defaults unless told).
    public init(limits: ParameterLimits = ParameterLimits()) {
        self.limits = limits
    }

    /// Parameters that must carry one value (§2.2); two or more → `InvalidParameters`. Every `set-`,
    /// `incr-` and `del-` command is scalar too (see `isScalar`). `params`, `add-*`, `rem-*` and
    /// `channels` are the lists; anything else may repeat and is ignored by the handlers.
    public static let scalarNames: Set<String> = [
        "key", "nonce", "time", "signature", "auth", "q", "joins", "limit", "offset", "lat", "lon",
        "swlat", "swlon", "nelat", "nelon", "email", "password", "code", "gateway", "token", "channel",
        "width", "height", "thumb", "callback", "_method",
    ]

    /// True for the names §2.2 requires to be single-valued.
    public static func isScalar(_ name: String) -> Bool {
        // Prefixes compared on bytes: `String.hasPrefix` works on characters, so "set-" followed by a
        // combining mark would not count as a command here while a byte-wise command parser saw one.
        scalarNames.contains(name) || name.utf8.starts(with: "set-".utf8) || name.utf8.starts(with: "incr-".utf8)
            || name.utf8.starts(with: "del-".utf8)
    }

    /// Decodes the query string `query` (without the `?`) and `body` of a request made with `httpMethod`.
    public func decode(httpMethod: String, query: [UInt8], body: ParameterBody) throws(ParameterError) -> DecodedParameters {
        var count = 0
        var raw: [RawParameter] = []
        // Room for a signed request's usual pairs (key, nonce, time, signature and a few more) at once,
        // instead of growing the array pair by pair.
        raw.reserveCapacity(8)
        // Query pairs first: on the wire the query string precedes the body, and "arrival order" (which
        // fixes list order across mixed forms) is wire order.
        try URLEncodedScanner.scan(query, source: .query, limits: limits, count: &count, into: &raw)
        switch body {
        case .none: break
        case .urlencoded(let bytes):
            try URLEncodedScanner.scan(bytes, source: .body, limits: limits, count: &count, into: &raw)
        case .multipart(let fields):
            try MultipartFields.collect(fields, limits: limits, count: &count, into: &raw)
        }
        // The server hands methods in upper case already (the common case costs no new string).
        let method = httpMethod.utf8.allSatisfy({ $0 < UInt8(ascii: "a") || $0 > UInt8(ascii: "z") }) ? httpMethod : httpMethod.uppercased()
        let inBoth = namesInBothSources(raw)
        let effective = try effectiveMethod(httpMethod: method, raw: raw, inBoth: inBoth)
        // Merge rule (§2.1): a name sent in both sources takes its values from one of them only, the query
        // for GET and DELETE, the body otherwise. The browser SDK sends a DELETE's parameter string in
        // both the URL and the body; without this every value would arrive twice.
        let preferred: ParameterSource = (effective == "GET" || effective == "DELETE") ? .query : .body
        let kept = inBoth.isEmpty ? raw : raw.filter { !inBoth.contains(.init($0.name)) || $0.source == preferred }
        let parameters = try ListAssembler.assemble(kept, limits: limits)
        for entry in parameters.entries where entry.values.count > 1 && Self.isScalar(entry.name) {
            throw .repeatedScalar(name: entry.name)
        }
        var callback: String?
        if let value = parameters.value("callback") {
            guard JSONP.isValidCallback(value) else { throw .invalidCallback }
            callback = value
        }
        return DecodedParameters(parameters: parameters, effectiveMethod: effective, callback: callback)
    }

    /// Convenience for a query string held as text.
    public func decode(httpMethod: String, query: String, body: ParameterBody = .none) throws(ParameterError) -> DecodedParameters {
        try decode(httpMethod: httpMethod, query: Array(query.utf8), body: body)
    }

    /// Base names that occur in both the query string and the body.
    private func namesInBothSources(_ raw: [RawParameter]) -> Set<BackbeamParameters.NameKey> {
        guard raw.first?.source == .query, raw.last?.source == .body else { return [] }
        var query = Set<BackbeamParameters.NameKey>(), body = Set<BackbeamParameters.NameKey>()
        for pair in raw {
            if pair.source == .query { query.insert(.init(pair.name)) } else { body.insert(.init(pair.name)) }
        }
        return query.intersection(body)
    }

    /// The effective method (§2.1). `_method` counts only on GET and POST: Android tunnels DELETE as
    /// `GET ...?_method=DELETE` and JSONP callers can only make GETs; on PUT and DELETE it is ignored.
    /// Which source `_method` itself is read from follows the merge rule with the HTTP method.
    private func effectiveMethod(httpMethod: String, raw: [RawParameter],
                                 inBoth: Set<BackbeamParameters.NameKey>) throws(ParameterError) -> String {
        guard httpMethod == "GET" || httpMethod == "POST" else { return httpMethod }
        let source: ParameterSource? = inBoth.isEmpty ? nil
            : inBoth.contains(.init("_method")) ? (httpMethod == "GET" ? .query : .body) : nil
        var found: String?
        for pair in raw where pair.name.utf8.count == 7 && pair.name.utf8.elementsEqual("_method".utf8)
            && (source == nil || pair.source == source) {
            guard found == nil else { throw .repeatedScalar(name: "_method") }
            found = pair.value
        }
        guard let first = found else { return httpMethod }
        let method = first.uppercased()
        guard ["GET", "POST", "PUT", "DELETE"].contains(method) else { throw .invalidMethodOverride }
        return method
    }
}
