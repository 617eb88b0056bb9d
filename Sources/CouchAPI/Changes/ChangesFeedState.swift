import ChangeFeed
import Core
import HTTP

/// One `_changes` request that waits (longpoll, continuous, eventsource): what it reads, how its answer is
/// finished, and how far it got. The feed's waiters carry it as their payload.
final class ChangesFeedState: Sendable {
    /// How rows are written.
    enum Shape: Sendable {
        /// One `{"results":[…],"last_seq":…}` answer (a longpoll; with a heartbeat it is a stream).
        case longpoll
        /// One row per line, then the `last_seq` line.
        case continuous
        /// Server-sent events, no `last_seq` line.
        case eventsource
    }

    private struct Progress {
        /// The last change examined (or sent): the next read starts after it.
        var position: Int64
        /// Rows sent so far (against `limit`).
        var rowsSent = 0
        /// A streamed longpoll sent its `{"results":[` head.
        var headSent = false
    }

    let databaseID: Int64
    let options: ChangesOptions
    let selection: ChangesSelection
    let shape: Shape
    /// Where `attachments=true` reads attachment data, and how much one page may inline.
    let attachments: AttachmentSource
    /// Adds Couch's headers (request id, CORS, a refreshed cookie) to an answer of this request.
    let finish: @Sendable (HTTPResponse) -> HTTPResponse
    private let progress: Locked<Progress>

    init(databaseID: Int64, options: ChangesOptions, selection: ChangesSelection, shape: Shape, since: Int64,
         attachments: AttachmentSource, finish: @escaping @Sendable (HTTPResponse) -> HTTPResponse) {
        self.databaseID = databaseID
        self.options = options
        self.selection = selection
        self.shape = shape
        self.attachments = attachments
        self.finish = finish
        progress = Locked(Progress(position: since))
    }

    /// The change topic of the database.
    var topic: String { CouchTopics.database(databaseID) }

    /// The last change examined or sent.
    var position: Int64 { progress.withLock { $0.position } }

    /// Rows the limit still allows (nil: no limit).
    var rowsLeft: Int? {
        guard let limit = options.limit else { return nil }
        return max(1, limit - progress.withLock { $0.rowsSent })
    }

    /// Records a page: its rows were sent and the feed now stands at `lastSeq`. Returns the number of rows
    /// sent before it (0: these are the first).
    @discardableResult
    func advance(to lastSeq: Int64, rows: Int) -> Int {
        progress.withLock { progress in
            let before = progress.rowsSent
            progress.position = lastSeq
            progress.rowsSent += rows
            return before
        }
    }

    /// Marks the streamed longpoll's head sent; true the first time.
    func takeHead() -> Bool {
        progress.withLock { progress in
            defer { progress.headSent = true }
            return !progress.headSent
        }
    }

    /// The cursor of a waiter at the current position.
    var cursors: [FeedCursor] { [FeedCursor(topic: topic, after: position)] }
}
