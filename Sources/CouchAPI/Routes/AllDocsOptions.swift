import Core

/// The options of `_all_docs`, `_design_docs` and `_local_docs` (spec §3.6), validated.
struct AllDocsOptions {
    /// A range bound as a JSON key. Every id is a string; any other JSON value sorts before all of them
    /// (CouchDB compares Erlang terms, and binaries sort after numbers, atoms, objects and arrays).
    enum Bound: Equatable {
        case key(String)
        case belowEveryID
    }

    /// The first key in iteration order (the high one with `descending`).
    var start: Bound?
    /// The last key in iteration order.
    var end: Bound?
    /// `keys`: a multi-key lookup, in request order.
    var keys: [JSON]?
    var inclusiveEnd = true
    var descending = false
    var limit: Int?
    var skip = 0
    var includeDocs = false
    var conflicts = false
    var updateSeq = false
    /// `attachments=true`: attachment data in included documents.
    var attachments = false
    /// `att_encoding_info=true`: included documents say which attachments are stored gzip.
    var attEncodingInfo = false

    /// Reads the options; `body` is a `POST`'s JSON object (the query string wins where both name a parameter).
    init(query: QueryParameters, body: JSONObject?) throws(CouchError) {
        let p = ViewParameters(query: query, body: body)
        if let text = query.value("keys") {
            guard case .array(let list) = try CouchJSON.parse(text) else {
                throw .badRequest("`keys` parameter must be an array.")
            }
            keys = list
        } else if let member = body?["keys"] {
            guard case .array(let list) = member else { throw .badRequest("`keys` body member must be an array.") }
            keys = list
        }
        let key = try p.json("key")
        let startKey = try p.json(anyOf: ["start_key", "startkey"])
        let endKey = try p.json(anyOf: ["end_key", "endkey"])
        if keys != nil, key != nil || startKey != nil || endKey != nil {
            throw .queryParseError("`keys` is incompatible with `key`, `start_key` and `end_key`")
        }
        if let key {
            start = Self.bound(key)
            end = Self.bound(key)
        } else {
            start = startKey.map(Self.bound)
            end = endKey.map(Self.bound)
        }
        inclusiveEnd = try p.boolean("inclusive_end") ?? true
        descending = try p.boolean("descending") ?? false
        limit = try p.nonNegativeInteger("limit")
        skip = try p.nonNegativeInteger("skip") ?? 0
        includeDocs = try p.boolean("include_docs") ?? false
        conflicts = try p.boolean("conflicts") ?? false
        updateSeq = try p.boolean("update_seq") ?? false
        attachments = try p.boolean("attachments") ?? false
        attEncodingInfo = try p.boolean("att_encoding_info") ?? false
        // Accepted and meaningless here: stale, stable, update, sorted, startkey_docid, endkey_docid, and
        // `atts_since`, which CouchDB's view parameters do not know either.
        if try p.boolean("reduce") == true { throw .queryParseError("`reduce` is not supported on _all_docs") }
        if try p.boolean("group") == true || p.has("group_level") {
            throw .queryParseError("Invalid use of grouping on a map view.")
        }
    }

    private static func bound(_ json: JSON) -> Bound {
        if case .string(let text) = json { return .key(text) }
        return .belowEveryID
    }

    /// The byte-order range the options select; nil when no id can match (a bound below every id on the
    /// wrong side).
    var range: KeyRange? {
        var range = KeyRange()
        let (lowBound, highBound) = descending ? (end, start) : (start, end)
        let (lowInclusive, highInclusive) = descending ? (inclusiveEnd, true) : (true, inclusiveEnd)
        switch lowBound {
        case .key(let key)?: range.low = KeyBound(key, inclusive: lowInclusive)
        case .belowEveryID?, nil: break
        }
        switch highBound {
        case .key(let key)?: range.high = KeyBound(key, inclusive: highInclusive)
        case .belowEveryID?: return nil
        case nil: break
        }
        return range
    }

    /// The entries of the index that come before the range's first key in iteration order.
    var before: KeyRange? {
        if descending {
            switch start {
            case .key(let key)?: return KeyRange(low: KeyBound(key, inclusive: false))
            case .belowEveryID?: return KeyRange()
            case nil: return nil
            }
        }
        switch start {
        case .key(let key)?: return KeyRange(high: KeyBound(key, inclusive: false))
        case .belowEveryID?, nil: return nil
        }
    }
}
