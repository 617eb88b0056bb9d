import HTTP

/// `get_snapshot` (§6.6): every record of every table, by tid then rowid, values verbatim.
enum GetSnapshotRoute {
    static func register(on group: RouteGroup, _ context: EndpointContext) {
        context.endpoint(group, "get_snapshot") { call in
            let handle = try call.params.required("handle")
            guard let (access, rows) = try context.store.snapshot(handle: handle, for: call.user) else {
                return .response(SoftOutcome.notFound(handle: handle))
            }
            return .response(WireResponse.object { w in
                w.raw("{")
                w.key("rev", first: true); w.int(access.datastore.rev)
                w.key("rows", first: false); DeltaWire.writeRows(rows, into: &w)
                // JS takes a shareable datastore's role from here; a missing one would make it read-only.
                if let role = access.wireRole { w.key("role", first: false); w.int(role) }
                w.raw("}")
            })
        }
    }
}
