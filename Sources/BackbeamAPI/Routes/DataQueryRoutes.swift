import Core

/// `GET /data/:entity` (query, §5.2.1) and `DELETE /data/:entity` (remove by query, §5.2.8).
enum DataQueryRoutes {
    static func register(on table: EndpointTable, _ service: ServiceContext) {
        table.on("GET", "/data/:entity") { call in
            let p = DataParameters(service: service, call: call)
            let request = QueryRequest(space: call.space, entity: try p.entity(), query: try p.query(), limit: p.limit(),
                                       offset: p.offset(), schema: call.project.schema,
                                       maxJoinWindow: service.config.maxLimit)
            return BackbeamReply(body: PageBodies.list(try service.store.query(request)))
        }
        table.on("DELETE", "/data/:entity") { call in
            let p = DataParameters(service: service, call: call)
            let request = QueryRequest(space: call.space, entity: try p.entity(), query: try p.query(),
                                       limit: p.removeLimit(), offset: p.offset(), schema: call.project.schema,
                                       maxJoinWindow: service.config.maxLimit)
            let removed = try service.store.remove(request)
            return BackbeamReply(body: ResponseBodies.removed(removed).serializedBytes())
        }
    }
}

extension JSONObject {
    /// Compact UTF-8 JSON of the object.
    func serializedBytes() -> [UInt8] { JSON.object(self).serializedBytes() }
}
