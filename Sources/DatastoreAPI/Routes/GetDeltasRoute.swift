import HTTP

/// `get_deltas` (§6.7): contiguous deltas from `rev`, `{}` when `rev` is current.
enum GetDeltasRoute {
    static func register(on group: RouteGroup, _ context: EndpointContext) {
        context.endpoint(group, "get_deltas") { call in
            let handle = try call.params.required("handle")
            let rev = try RevParameter.parse(call.params)
            switch try context.store.deltas(handle: handle, from: rev, for: call.user, cap: context.cap) {
            case .notFound:
                return .response(SoftOutcome.notFound(handle: handle))
            case .ahead(let current):
                return .response(WireResponse.single("notfound", SoftOutcome.ahead(rev: rev, handle: handle, current: current)))
            case .deltas(let deltas, _):
                guard !deltas.isEmpty else { return .response(WireResponse.empty) }
                return .response(WireResponse.object { w in
                    w.raw("{")
                    w.key("deltas", first: true)
                    DeltaWire.writeDeltas(deltas, into: &w)
                    w.raw("}")
                })
            }
        }
    }
}

/// The `rev` parameter: a canonical non-negative decimal int64 (no sign, no leading zeros).
enum RevParameter {
    static func parse(_ params: RequestParameters) throws -> Int64 {
        guard let text = params.value("rev") else { throw DatastoreAPIError.badRequest("Missing parameter 'rev'") }
        guard let rev = Identifiers.parseCanonicalRev(text) else {
            throw DatastoreAPIError.badRequest("Invalid rev: \(Quote.echo(text))")
        }
        return rev
    }
}
