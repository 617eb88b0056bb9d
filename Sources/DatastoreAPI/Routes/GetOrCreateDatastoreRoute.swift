import HTTP

/// `get_or_create_datastore` (§6.3): a private dsid only; `created` is required by the JS SDK.
enum GetOrCreateDatastoreRoute {
    static func register(on group: RouteGroup, _ context: EndpointContext) {
        context.endpoint(group, "get_or_create_datastore") { call in
            let dsid = try call.params.required("dsid")
            if dsid.hasPrefix(".") {
                throw DatastoreAPIError.badRequest("Shareable datastores must be created with create_datastore")
            }
            guard Identifiers.isPrivateDsid(dsid) else { throw DsidParameter.invalid(dsid) }
            // Fast path without a write job when it already exists; creation is decided on the writer.
            if let access = try context.store.datastore(dsid: dsid, for: call.user) {
                return .response(CreateWire.render(CreateOutcome(handle: access.datastore.handle,
                                                                 rev: access.datastore.rev, created: false), role: nil))
            }
            let parked = EndpointContext.writeParking()
            context.store.getOrCreate(dsid: dsid, for: call.user) { result in
                context.finish(parked, result, request: call.request) { CreateWire.render($0, role: nil) }
            }
            return .parked(parked)
        }
    }
}

/// `{"handle": ..., "rev": ..., "created": ..., "role"?: ...}`
enum CreateWire {
    static func render(_ outcome: CreateOutcome, role: Int?) -> HTTPResponse {
        WireResponse.object { w in
            w.raw("{")
            w.key("handle", first: true); w.string(outcome.handle)
            w.key("rev", first: false); w.int(outcome.rev)
            w.key("created", first: false); w.raw(outcome.created ? "true" : "false")
            if let role { w.key("role", first: false); w.int(role) }
            w.raw("}")
        }
    }
}
