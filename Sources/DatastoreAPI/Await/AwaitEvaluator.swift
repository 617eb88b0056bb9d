import HTTP

/// Decides what an `await` answers right now (§6.9): the list when the token differs, and per watched
/// handle either its new deltas (never an empty list) or `notfound`. Nil when nothing holds.
struct AwaitEvaluator: Sendable {
    let store: any DatastoreStore
    let cap: DeltaBatchCap
    let renderer: DatastoreErrorRenderer

    func evaluate(_ waiter: AwaitWaiter) -> HTTPResponse? {
        do { return try answer(user: waiter.user, watch: waiter.watch) } catch {
            return renderer.render(error, nil)
        }
    }

    /// The answer body, or nil when nothing holds.
    func answer(user: DatastoreUser, watch: AwaitWatch) throws -> HTTPResponse? {
        let state = try store.awaitState(for: user, includeList: watch.listToken != nil, cursors: watch.cursors, cap: cap)
        var listPart: (items: [ListItem], token: String)?
        if let submitted = watch.listToken, let items = state.list {
            let token = ListWire.token(items)
            if token != submitted { listPart = (items, token) }
        }
        var news: [(String, DeltaRead, Int64)] = []
        for cursor in watch.cursors {
            guard let read = state.deltas[cursor.handle] else { continue }
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
