import Logging
import HTTP

/// The `{"results":[…],"last_seq":N,"pending":P}` answer of `feed=normal` and of a longpoll that has rows
/// (spec §3.11.3, §3.11.4).
enum ChangesAnswer {
    /// The answer whose first page is `first`. A final first page is one body with a length; otherwise
    /// the rest is read page by page (one snapshot each) while the answer streams, so memory stays bounded
    /// however long the feed is.
    static func normal(_ first: ChangesPage, state: ChangesFeedState, store: any CouchStore,
                       logger: Logger) -> HTTPResponse {
        let style = state.options.rowStyle
        let rows = first.rows.map { ChangesJSON.row($0, style: style) }
        if first.isFinal {
            return CouchResponse.json(.ok, bytes: ChangesJSON.normalBody(rows: rows, lastSeq: first.lastSeq,
                                                                         pending: first.pending))
        }
        state.advance(to: first.lastSeq, rows: first.rows.count)
        var firstBytes = ChangesJSON.normalHead
        ChangesJSON.appendRows(rows, to: &firstBytes, first: true)
        let head = firstBytes
        var response = CouchResponse.json(.ok, bytes: [])
        response.body = .stream { writer in
            guard writer.write(head) else { return }
            while true {
                let page: ChangesPage
                do {
                    page = try store.read { reader in
                        try ChangesScan.page(reader, databaseID: state.databaseID, options: state.options,
                                             selection: state.selection, after: state.position, rowsLeft: state.rowsLeft,
                                             attachments: state.attachments)
                    }
                } catch {
                    // The status is sent: ending without the summary leaves invalid JSON, which the client
                    // takes as the failure it is (a replicator retries from its checkpoint).
                    logger.error("couch _changes read failed", metadata: ["error": "\(error)"])
                    writer.finish()
                    return
                }
                var out: [UInt8] = []
                ChangesJSON.appendRows(page.rows.map { ChangesJSON.row($0, style: style) }, to: &out, first: false)
                state.advance(to: page.lastSeq, rows: page.rows.count)
                if page.isFinal {
                    out.append(contentsOf: ChangesJSON.normalTail(lastSeq: page.lastSeq, pending: page.pending))
                    writer.finish(with: out)
                    return
                }
                guard writer.write(out) else { return }
            }
        }
        return response
    }

    /// An answer without rows: the wait ended, or the database went away.
    static func empty(lastSeq: Int64) -> HTTPResponse {
        CouchResponse.json(.ok, bytes: ChangesJSON.normalBody(rows: [], lastSeq: lastSeq, pending: 0))
    }
}
