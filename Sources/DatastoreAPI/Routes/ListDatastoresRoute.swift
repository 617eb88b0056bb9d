import HTTP

/// `list_datastores` (§6.1): the caller's datastores by dsid and the list token.
enum ListDatastoresRoute {
    static func register(on group: RouteGroup, _ context: EndpointContext) {
        context.endpoint(group, "list_datastores") { call in
            let items = try context.store.listDatastores(for: call.user)
            return .response(WireResponse.object { w in ListWire.writeList(items, token: ListWire.token(items), into: &w) })
        }
    }
}
