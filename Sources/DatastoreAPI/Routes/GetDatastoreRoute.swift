import HTTP

/// `get_datastore` (§6.2): handle and rev of a datastore by dsid, `role` for shareable ones.
enum GetDatastoreRoute {
    static func register(on group: RouteGroup, _ context: EndpointContext) {
        context.endpoint(group, "get_datastore") { call in
            let dsid = try DsidParameter.any(call.params)
            guard let access = try context.store.datastore(dsid: dsid, for: call.user) else {
                return .response(SoftOutcome.notFound(dsid: dsid))
            }
            return .response(WireResponse.object { w in
                w.raw("{")
                w.key("handle", first: true); w.string(access.datastore.handle)
                w.key("rev", first: false); w.int(access.datastore.rev)
                if let role = access.wireRole { w.key("role", first: false); w.int(role) }
                w.raw("}")
            })
        }
    }
}

/// The `dsid` parameter and its grammar (§5.1).
enum DsidParameter {
    /// A private or shareable dsid; missing or invalid → 400.
    static func any(_ params: RequestParameters) throws -> String {
        let dsid = try params.required("dsid")
        guard Identifiers.isPrivateDsid(dsid) || Identifiers.isShareableDsid(dsid) else { throw invalid(dsid) }
        return dsid
    }

    /// `{"error": "Invalid dsid: '<dsid>'"}`
    static func invalid(_ dsid: String) -> DatastoreAPIError { .badRequest("Invalid dsid: \(Quote.echo(dsid))") }
}

/// The soft outcomes (status 200) with the message templates of §6.
enum SoftOutcome {
    static func notFound(dsid: String) -> HTTPResponse {
        WireResponse.single("notfound", "Datastore \(Quote.echo(dsid)) not found")
    }
    static func notFound(handle: String) -> HTTPResponse {
        WireResponse.single("notfound", "Datastore with handle \(Quote.echo(handle)) not found")
    }
    static func conflict(rev: Int64, current: Int64) -> HTTPResponse {
        WireResponse.single("conflict", "Datastore revision \(rev) is not current (current revision is \(current))")
    }
    static func accessDenied(handle: String) -> HTTPResponse {
        WireResponse.single("access_denied", "Write access denied for datastore with handle \(Quote.echo(handle))")
    }
    static func ahead(rev: Int64, handle: String, current: Int64) -> String {
        "Revision \(rev) of datastore with handle \(Quote.echo(handle)) does not exist (current revision is \(current))"
    }
}
