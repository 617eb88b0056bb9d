import ChangeFeed
import Core
import HTTP

/// Decides what `await`s answer right now (§6.9): the list when the token differs, and per watched handle
/// either its new deltas (never an empty list) or `notfound`. Waiters woken by one commit are evaluated as
/// one batch from one read transaction; waiters of one user watching the same things share one answer.
struct AwaitEvaluator: Sendable {
    let store: any DatastoreStore
    let cap: DeltaBatchCap
    let renderer: DatastoreErrorRenderer

    /// Answers for the waiters that have news, by waiter id; the others keep waiting.
    func evaluate(_ waiters: [FeedWaiter<AwaitRequest>]) -> [Int: HTTPResponse] {
        do {
            return try store.readForAwait { reader in
                var lowest: [String: Int64] = [:]
                for waiter in waiters {
                    for cursor in waiter.payload.watch.cursors {
                        lowest[cursor.handle] = min(lowest[cursor.handle] ?? cursor.rev, cursor.rev)
                    }
                }
                for (handle, rev) in lowest { try reader.prefetch(handle: handle, from: rev, cap: cap) }
                var shared: [ShareKey: HTTPResponse?] = [:]
                var answers: [Int: HTTPResponse] = [:]
                for waiter in waiters {
                    let request = waiter.payload
                    let key = ShareKey(uid: request.user.uid, watch: request.watch)
                    let answer: HTTPResponse?
                    if let known = shared[key] {
                        answer = known
                    } else {
                        answer = try self.answer(user: request.user, watch: request.watch, reader: reader)
                        shared[key] = .some(answer)
                    }
                    if let answer { answers[waiter.id] = answer }
                }
                return answers
            }
        } catch {
            let failure = renderer.render(error, nil)
            return Dictionary(uniqueKeysWithValues: waiters.map { ($0.id, failure) })
        }
    }

    /// Identical watches of one user get the same answer.
    private struct ShareKey: Hashable {
        let uid: Int64
        let watch: AwaitWatch
    }

    /// The answer body, or nil when nothing holds.
    private func answer(user: DatastoreUser, watch: AwaitWatch, reader: any AwaitStateReader) throws -> HTTPResponse? {
        var listPart: (items: [ListItem], token: String)?
        if let submitted = watch.listToken {
            let items = try reader.list(for: user)
            let token = ListWire.token(items)
            if token != submitted { listPart = (items, token) }
        }
        var news: [(String, DeltaRead, Int64)] = []
        for cursor in watch.cursors {
            let read = try reader.deltas(handle: cursor.handle, from: cursor.rev, for: user, cap: cap)
            if case .deltas(let deltas, _) = read, deltas.isEmpty { continue }
            news.append((cursor.handle, read, cursor.rev))
        }
        guard listPart != nil || !news.isEmpty else { return nil }
        return WireResponse.object { w in
            w.raw("{")
            var first = true
            if let listPart {
                w.key("list_datastores", first: true)
                ListWire.writeList(listPart.items, token: listPart.token, into: &w)
                first = false
            }
            if !news.isEmpty {
                w.key("get_deltas", first: first)
                w.raw("{\"deltas\":{")
                for (i, (handle, read, rev)) in news.enumerated() {
                    w.key(handle, first: i == 0)
                    Self.writeEntry(read, handle: handle, cursor: rev, into: &w)
                }
                w.raw("}}")
            }
            w.raw("}")
        }
    }

    private static func writeEntry(_ read: DeltaRead, handle: String, cursor: Int64, into w: inout JSONWriter) {
        w.raw("{")
        switch read {
        case .notFound:
            w.key("notfound", first: true)
            w.string("Datastore with handle \(Quote.echo(handle)) not found")
        case .ahead(let current):
            w.key("notfound", first: true)
            w.string(SoftOutcome.ahead(rev: cursor, handle: handle, current: current))
        case .deltas(let deltas, let access):
            w.key("deltas", first: true)
            DeltaWire.writeDeltas(deltas, into: &w)
            // JS updates the datastore's effective role from here.
            if let role = access.wireRole { w.key("role", first: false); w.int(role) }
        }
        w.raw("}")
    }
}
