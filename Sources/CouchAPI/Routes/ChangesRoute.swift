import ChangeFeed
import Core
import HTTP

/// `GET|POST /{db}/_changes` (spec §3.11): the changes feed in its four shapes.
enum ChangesRoute {
    static let allowed = "GET,HEAD,POST"

    static func handle(_ call: CouchCall, database name: String) throws -> Reply {
        guard call.method == .get || call.method == .head || call.method == .post else {
            throw CouchFailure(.methodNotAllowed(allowed), headers: [("Allow", allowed)])
        }
        var options = try ChangesOptions(call.query, maxWait: call.config.changesTimeout,
                                         lastEventID: call.request.headers["Last-Event-ID"])
        if call.method == .post { try readBody(call, into: &options) }
        let selection = try options.selection()
        guard let database = try call.store.read({ try $0.database(named: name) }) else {
            throw CouchError.databaseMissing
        }
        let since: Int64
        switch options.since {
        case .now: since = database.updateSeq
        case .sequence(let value): since = options.descending ? .max : value
        }
        let shape: ChangesFeedState.Shape = switch options.feed {
        case .normal, .longpoll: .longpoll
        case .continuous: .continuous
        case .eventsource: .eventsource
        }
        let finish: @Sendable (HTTPResponse) -> HTTPResponse = { [call] response in call.finish(response) }
        let state = ChangesFeedState(databaseID: database.id, options: options, selection: selection, shape: shape,
                                     since: since, attachments: AttachmentSource(blobs: call.context.blobs,
                                                                                 budget: call.config.maxAttachmentSize),
                                     finish: finish)
        let feeds = call.context.changes
        let key = call.credentials.name ?? ""
        switch options.feed {
        case .normal:
            let store = call.store
            let page = try store.read { reader in
                try ChangesScan.page(reader, databaseID: state.databaseID, options: options, selection: selection,
                                     after: since, rowsLeft: state.rowsLeft, attachments: state.attachments)
            }
            return .response(finish(ChangesAnswer.normal(page, state: state, store: store, logger: call.context.logger)))
        case .longpoll where options.heartbeat == nil:
            guard let reply = feeds.longPolls.wait(key: key, cursors: state.cursors, payload: state,
                                                   timeout: options.wait,
                                                   onTimeout: { ChangesFeeds.timedOut(state) }) else {
                throw tooManyFeeds
            }
            return reply
        case .longpoll, .continuous, .eventsource:
            guard let response = feeds.streams.open(key: key, cursors: state.cursors, payload: state,
                                                    head: finish(head(options.feed)),
                                                    options: streamOptions(options)) else {
                throw tooManyFeeds
            }
            return .response(response)
        }
    }

    /// A POST body (optional, a JSON object) brings `doc_ids` for `filter=_doc_ids`; the copies of the
    /// other parameters that Couchbase Lite 1.x puts there are ignored: the query string rules (§3.11.1).
    private static func readBody(_ call: CouchCall, into options: inout ChangesOptions) throws {
        try RequestBodies.requireJSON(call.request)
        let bytes = try RequestBodies.read(call.request, limit: call.config.maxDocumentSize)
        guard !bytes.isEmpty else { return }
        guard case .object(let body) = try CouchJSON.parse(bytes) else { throw CouchError.requestBodyNotObject }
        if case .documentIDs(nil) = options.filter, let ids = body["doc_ids"] {
            options.filter = .documentIDs(try ChangesOptions.documentIDs(ids))
        }
    }

    /// The status and headers of a streamed feed.
    private static func head(_ feed: ChangesOptions.Feed) -> HTTPResponse {
        guard feed == .eventsource else { return CouchResponse.json(.ok, bytes: []) }
        var headers = HTTPHeaders()
        headers.add("Content-Type", "text/event-stream")
        headers.add("Cache-Control", "no-cache")
        return HTTPResponse(status: .ok, headers: headers, body: .empty)
    }

    /// Heartbeats while idle, or (without them) the end after `timeout` without a row (§3.11.6): CouchDB's
    /// "heartbeat overrides timeout".
    private static func streamOptions(_ options: ChangesOptions) -> FeedStreamOptions {
        guard let heartbeat = options.heartbeat else {
            return FeedStreamOptions(timeout: options.wait, timeoutSinceLastChunk: true)
        }
        let bytes = options.feed == .eventsource ? ChangesJSON.eventSourceHeartbeat : ChangesJSON.heartbeat
        return FeedStreamOptions(heartbeat: (.milliseconds(heartbeat), bytes))
    }

    static let tooManyFeeds = CouchError(status: 503, error: "service_unavailable",
                                         reason: "Too many open _changes feeds for this user.")
}
