import Core

/// The parameters of a `_changes` request (spec §3.11.1), validated, with the waits already clamped to
/// `couch.changesTimeout` (§3.11.6).
struct ChangesOptions: Sendable, Hashable {
    /// How the answer is sent.
    enum Feed: Sendable, Hashable {
        case normal
        case longpoll
        /// `continuous` and its alias `live`.
        case continuous
        /// P2 (§3.11.7).
        case eventsource
    }

    /// Where the feed starts.
    enum Since: Sendable, Hashable {
        /// The database's `update_seq` when the request is read.
        case now
        case sequence(Int64)
    }

    /// `filter`.
    enum Filter: Sendable, Hashable {
        case none
        /// `_doc_ids`; nil until the ids are known (a POST body may bring them).
        case documentIDs([String]?)
        case design
    }

    var feed = Feed.normal
    var since = Since.sequence(0)
    /// Most rows; nil: no limit. `limit=0` is 1, as in CouchDB.
    var limit: Int?
    /// Newest first (`feed=normal` only).
    var descending = false
    /// `style=all_docs`: every leaf in `changes`, not only the winner.
    var allLeaves = false
    var includeDocs = false
    /// With `include_docs`: `_conflicts` in each document.
    var conflicts = false
    /// With `include_docs`: attachment data inline (`attachments=true`).
    var attachments = false
    /// With `include_docs`: `encoding`/`encoded_length` of gzip-stored attachments (`att_encoding_info=true`).
    var attEncodingInfo = false
    /// Heartbeat interval in ms, clamped; nil: none (the feed then ends after `timeout`).
    var heartbeat: Int?
    /// How long a feed may stay silent before it ends, in ms, clamped (ignored with a heartbeat).
    var timeout: Int
    var filter = Filter.none

    /// Reads the query string. `maxWait` is `couch.changesTimeout` in ms: the default and the largest wait.
    /// `lastEventID` is the `Last-Event-ID` header, which overrides `since` (and its alias, the
    /// `last-event-id` parameter) for `feed=eventsource`.
    init(_ query: QueryParameters, maxWait: Int, lastEventID: String? = nil) throws(CouchError) {
        timeout = maxWait
        switch query.value("feed") {
        case nil, "normal": feed = .normal
        case "longpoll": feed = .longpoll
        case "continuous", "live": feed = .continuous
        case "eventsource": feed = .eventsource
        default: throw .badRequest("Supported `feed` types: normal, continuous, live, longpoll, eventsource")
        }
        // `last-event-id` is another name for `since` on every feed (CouchDB reads the parameters in order, so
        // the later of the two wins; aiocouch polls with it); the `Last-Event-ID` header of an EventSource
        // reconnection overrides both.
        if let text = query.form.pairs.last(where: { $0.name == "since" || $0.name == "last-event-id" })?.value {
            since = try Self.since(text)
        }
        if feed == .eventsource, let text = lastEventID { since = try Self.since(text) }
        if let text = query.value("limit") {
            guard let value = Self.decimal(text) else {
                throw .badRequest("Invalid value for limit: \"\(text)\". Expecting a non-negative integer.")
            }
            limit = max(1, value)
        }
        descending = feed == .normal && query.flag("descending")
        switch query.value("style") {
        case nil, "main_only": allLeaves = false
        case "all_docs": allLeaves = true
        case let other?: throw .badRequest("Invalid style \"\(other)\": expecting main_only or all_docs.")
        }
        includeDocs = query.flag("include_docs")
        conflicts = query.flag("conflicts")
        attachments = query.flag("attachments")
        attEncodingInfo = query.flag("att_encoding_info")
        if let text = query.value("heartbeat") { heartbeat = min(try Self.heartbeat(text, maxWait: maxWait), maxWait) }
        if let text = query.value("timeout") {
            guard let value = Self.decimal(text) else {
                throw .badRequest("Invalid value for timeout: \"\(text)\". Expecting a non-negative integer (in milliseconds).")
            }
            timeout = min(value, maxWait)
        }
        filter = try Self.filter(query)
        if let text = query.value("seq_interval") {
            guard let value = Self.decimal(text), value > 0 else { throw .badRequest("invalid_seq_interval") }
        }
    }

    /// `since`: a non-negative decimal, the same quoted as a JSON string (the CouchDB replicator JSON-encodes
    /// the sequences it stored), or `now`.
    static func since(_ text: String) throws(CouchError) -> Since {
        if text == "now" { return .now }
        var digits = Substring(text)
        if digits.count >= 2, digits.first == "\"", digits.last == "\"" { digits = digits.dropFirst().dropLast() }
        guard let value = decimal(digits).flatMap(Int64.init(exactly:)) else {
            throw .badRequest("Malformed sequence supplied in 'since' parameter.")
        }
        return .sequence(value)
    }

    /// `heartbeat`: `true` (the largest wait) or a positive number of milliseconds.
    static func heartbeat(_ text: String, maxWait: Int) throws(CouchError) -> Int {
        if text == "true" { return maxWait }
        guard let value = Int(text) else {
            throw .badRequest("Invalid heartbeat value. Expecting a positive integer value (in milliseconds).")
        }
        guard value > 0 else { throw .badRequest("The heartbeat value should be a positive integer (in milliseconds).") }
        return value
    }

    /// `filter` and, for `_doc_ids`, the `doc_ids` parameter. Only the built-in filters exist here: design
    /// document filter functions, views and Mango selectors are out of scope (§9).
    static func filter(_ query: QueryParameters) throws(CouchError) -> Filter {
        guard let name = query.value("filter"), !name.isEmpty else { return .none }
        switch name {
        case "_doc_ids":
            guard let text = query.value("doc_ids") else { return .documentIDs(nil) }
            return .documentIDs(try documentIDs(CouchJSON.parse(text)))
        case "_design":
            return .design
        case "_selector", "_view":
            throw .badRequest("filter `\(name)` is not supported by this server")
        default:
            if name.utf8.first == UInt8(ascii: "_") { throw .badRequest("unknown builtin filter name") }
            throw .badRequest("filter `\(name)` is not supported by this server")
        }
    }

    /// The ids of `doc_ids` (a JSON array of strings), each once, in their first order.
    static func documentIDs(_ value: JSON?) throws(CouchError) -> [String] {
        guard case .array(let items)? = value else { throw notDocIDs }
        var seen = Set<String>()
        var ids: [String] = []
        for item in items {
            guard case .string(let id) = item else { throw notDocIDs }
            if seen.insert(id).inserted { ids.append(id) }
        }
        return ids
    }

    static let notDocIDs = CouchError.badRequest("`doc_ids` filter parameter is not a list of doc ids.")

    /// A non-negative decimal integer written with digits only (no sign, no spaces), or nil.
    static func decimal(_ text: some StringProtocol) -> Int? {
        guard !text.isEmpty, text.utf8.count <= 18,
              text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else { return nil }
        return Int(text)
    }

    /// The wait of a longpoll or stream that has no heartbeat.
    var wait: Duration { .milliseconds(timeout) }

    /// What a row shows.
    var rowStyle: ChangesJSON.RowStyle {
        ChangesJSON.RowStyle(allLeaves: allLeaves, includeDocs: includeDocs, conflicts: conflicts)
    }

    /// The documents the feed reads; `_doc_ids` without ids (neither in the query nor in a POST body) is
    /// CouchDB's 400.
    func selection() throws(CouchError) -> ChangesSelection {
        switch filter {
        case .none: return .all
        case .design: return .design
        case .documentIDs(let ids?): return .documentIDs(ids)
        case .documentIDs(nil): throw Self.notDocIDs
        }
    }
}
