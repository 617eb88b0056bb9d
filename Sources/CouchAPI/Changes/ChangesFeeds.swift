import ChangeFeed
import HTTP
import Logging
import Storage

/// The waiting `_changes` feeds (spec §3.11.4–3.11.7) on the shared change-feed primitive: a longpoll
/// parks as a `LongPollFeed` waiter, a continuous or eventsource feed (and a longpoll with a heartbeat,
/// which must write while it waits) is a `StreamFeed` stream. Neither holds a thread while idle; the
/// store's event on `couch.db.<id>` after each durable commit (and at the database's deletion) wakes them.
final class ChangesFeeds: Sendable {
    let longPolls: LongPollFeed<ChangesFeedState>
    let streams: StreamFeed<ChangesFeedState>

    init(bus: ChangeBus, store: any CouchStore, maxPerUser: Int, logger: Logger) {
        longPolls = LongPollFeed(bus: bus, label: "quartet.couch.changes.longpoll", maxPerKey: maxPerUser,
                                 evaluator: { Self.evaluateLongPolls($0, store: store, logger: logger) })
        streams = StreamFeed(bus: bus, label: "quartet.couch.changes.stream", maxPerKey: maxPerUser,
                             evaluator: { Self.evaluateStreams($0, store: store, logger: logger) },
                             closing: { waiter, _ in Self.closing(waiter.payload, store: store) })
    }

    /// What identifies a page within one evaluation: waiters of one database at the same position with the
    /// same options share the read (one commit wakes thousands of identical long polls).
    private struct PageKey: Hashable {
        let databaseID: Int64
        let position: Int64
        let rowsLeft: Int?
        let options: ChangesOptions

        init(_ state: ChangesFeedState) {
            databaseID = state.databaseID
            position = state.position
            rowsLeft = state.rowsLeft
            options = state.options
        }
    }

    /// Answers the long polls that have rows now (or whose database is gone), all from one snapshot; the
    /// others move past the changes their filter skipped and keep waiting.
    static func evaluateLongPolls(_ waiters: [FeedWaiter<ChangesFeedState>], store: any CouchStore,
                                  logger: Logger) -> [Int: HTTPResponse] {
        var answers: [Int: HTTPResponse] = [:]
        do {
            try store.read { reader in
                var pages: [PageKey: ChangesPage] = [:]
                var bodies: [PageKey: HTTPResponse] = [:]
                for waiter in waiters {
                    let state = waiter.payload
                    let key = PageKey(state)
                    let page = try pages[key] ?? ChangesScan.page(reader, databaseID: state.databaseID,
                                                                  options: state.options, selection: state.selection,
                                                                  after: key.position, rowsLeft: key.rowsLeft,
                                                                  attachments: state.attachments)
                    pages[key] = page
                    if page.databaseGone {
                        answers[waiter.id] = state.finish(ChangesAnswer.empty(lastSeq: page.lastSeq))
                    } else if page.rows.isEmpty {
                        state.advance(to: page.lastSeq, rows: 0)
                    } else if page.isFinal {
                        // A one-body answer: rendered once for every waiter that shares it.
                        let body = bodies[key] ?? ChangesAnswer.normal(page, state: state, store: store, logger: logger)
                        bodies[key] = body
                        answers[waiter.id] = state.finish(body)
                    } else {
                        answers[waiter.id] = state.finish(ChangesAnswer.normal(page, state: state, store: store,
                                                                               logger: logger))
                    }
                }
            }
        } catch {
            logger.error("couch _changes read failed", metadata: ["error": "\(error)"])
            for waiter in waiters where answers[waiter.id] == nil {
                answers[waiter.id] = waiter.payload.finish(CouchResponse.error(.internalError))
            }
        }
        return answers
    }

    /// The timeout answer of a long poll: no rows, at the last change it examined.
    static func timedOut(_ state: ChangesFeedState) -> HTTPResponse {
        state.finish(ChangesAnswer.empty(lastSeq: state.position))
    }

    /// What each stream sends now, all from one snapshot.
    static func evaluateStreams(_ waiters: [FeedWaiter<ChangesFeedState>], store: any CouchStore,
                                logger: Logger) -> [Int: FeedChunk] {
        var chunks: [Int: FeedChunk] = [:]
        do {
            try store.read { reader in
                for waiter in waiters {
                    let state = waiter.payload
                    let page = try ChangesScan.page(reader, databaseID: state.databaseID, options: state.options,
                                                    selection: state.selection, after: state.position,
                                                    rowsLeft: state.rowsLeft, attachments: state.attachments)
                    chunks[waiter.id] = chunk(page, state: state)
                }
            }
        } catch {
            // Ends the streams not served yet the way a time-out would, so clients resume from `last_seq`.
            logger.error("couch _changes read failed", metadata: ["error": "\(error)"])
            for waiter in waiters where chunks[waiter.id] == nil {
                chunks[waiter.id] = .last(closing(waiter.payload, store: nil))
            }
        }
        return chunks
    }

    /// The bytes of one page in the stream's shape, and whether the stream ends with them: when the limit
    /// is reached, when the database is gone, and for a longpoll once it has rows.
    static func chunk(_ page: ChangesPage, state: ChangesFeedState) -> FeedChunk {
        let style = state.options.rowStyle
        let rows = page.rows.map { ChangesJSON.row($0, style: style) }
        let sentBefore = state.advance(to: page.lastSeq, rows: page.rows.count)
        let ends = page.limitReached || page.databaseGone
        switch state.shape {
        case .continuous:
            var bytes = ChangesJSON.continuousLines(rows)
            if ends {
                bytes.append(contentsOf: ChangesJSON.continuousEnd(lastSeq: page.lastSeq, pending: page.pending))
                return .last(bytes)
            }
            return .more(bytes, cursors: state.cursors, hasMore: !page.isFinal)
        case .eventsource:
            let bytes = ChangesJSON.events(rows, seqs: page.rows.map(\.seq))
            return ends ? .last(bytes) : .more(bytes, cursors: state.cursors, hasMore: !page.isFinal)
        case .longpoll:
            var bytes = state.takeHead() ? ChangesJSON.normalHead : []
            ChangesJSON.appendRows(rows, to: &bytes, first: sentBefore == 0)
            if page.isFinal, ends || sentBefore + rows.count > 0 {
                bytes.append(contentsOf: ChangesJSON.normalTail(lastSeq: page.lastSeq, pending: page.pending))
                return .last(bytes)
            }
            return .more(bytes, cursors: state.cursors, hasMore: !page.isFinal)
        }
    }

    /// The last bytes of a stream the server ends (time-out, shutdown, a failed read): the summary at the
    /// last change examined. `store` counts `pending`; nil when reading failed.
    static func closing(_ state: ChangesFeedState, store: (any CouchStore)?) -> [UInt8] {
        let position = state.position
        switch state.shape {
        case .eventsource:
            return []
        case .continuous:
            let pending = (try? store?.read { try $0.changeCount(databaseID: state.databaseID, after: position,
                                                                 before: nil) }) ?? 0
            return ChangesJSON.continuousEnd(lastSeq: position, pending: pending)
        case .longpoll:
            var bytes = state.takeHead() ? ChangesJSON.normalHead : []
            bytes.append(contentsOf: ChangesJSON.normalTail(lastSeq: position, pending: 0))
            return bytes
        }
    }
}
