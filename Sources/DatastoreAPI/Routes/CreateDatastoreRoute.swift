import HTTP

/// `create_datastore` (§6.4): a shareable dsid that must equal `"." + dbase64(SHA-256(key))`, so nobody can
/// squat a chosen dsid while the creator can safely retry.
enum CreateDatastoreRoute {
    /// Longest accepted key, in bytes.
    static let maxKeyBytes = 256

    static func register(on group: RouteGroup, _ context: EndpointContext) {
        context.endpoint(group, "create_datastore") { call in
            let dsid = try call.params.required("dsid")
            guard Identifiers.isShareableDsid(dsid) else { throw DsidParameter.invalid(dsid) }
            let key = try call.params.required("key")
            guard key.utf8.count <= maxKeyBytes else { throw DatastoreAPIError.badRequest("key is too long") }
            guard Identifiers.shareableDsid(forKey: key) == dsid else {
                throw DatastoreAPIError.badRequest("dsid does not match key")
            }
            let parked = EndpointContext.writeParking()
            context.store.createShareable(dsid: dsid, for: call.user) { result in
                context.finish(parked, result, request: call.request) { CreateWire.render($0, role: Role.owner) }
            }
            return .parked(parked)
        }
    }
}
