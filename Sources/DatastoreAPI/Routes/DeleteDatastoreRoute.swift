import HTTP

/// `delete_datastore` (§6.5): owner only; the handle dies and the dsid becomes free.
enum DeleteDatastoreRoute {
    static func register(on group: RouteGroup, _ context: EndpointContext) {
        context.endpoint(group, "delete_datastore") { call in
            let handle = try call.params.required("handle")
            let parked = EndpointContext.writeParking()
            context.store.delete(handle: handle, for: call.user) { result in
                context.finish(parked, result, request: call.request) { outcome in
                    switch outcome {
                    case .deleted:
                        return WireResponse.single("ok", "Deleted datastore with handle: \(Quote.echo(handle)).")
                    case .notFound:
                        return SoftOutcome.notFound(handle: handle)
                    case .accessDenied:
                        return WireResponse.single("access_denied",
                                                   "Only the owner may delete datastore with handle \(Quote.echo(handle))")
                    }
                }
            }
            return .parked(parked)
        }
    }
}
