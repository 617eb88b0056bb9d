/// `GET /data/:entity/near/:field` (§5.2.2) and `GET /data/:entity/bounding/:field` (§5.2.3), with their
/// legacy forms `.../near?near=<field>` and `.../bounding?near=<field>` (or `bounding=<field>`).
enum DataGeoRoutes {
    static func register(on table: EndpointTable, _ service: ServiceContext) {
        table.on("GET", "/data/:entity/near/:field") { call in try near(call, field: call.path("field"), service) }
        table.on("GET", "/data/:entity/near") { call in
            try near(call, field: try legacyField(call, ["near"]), service)
        }
        table.on("GET", "/data/:entity/bounding/:field") { call in try bounding(call, field: call.path("field"), service) }
        table.on("GET", "/data/:entity/bounding") { call in
            try bounding(call, field: try legacyField(call, ["near", "bounding"]), service)
        }
    }

    private static func legacyField(_ call: BackbeamCall, _ names: [String]) throws -> String {
        for name in names {
            if let field = call.parameters.value(name), !field.isEmpty { return field }
        }
        throw BackbeamError(.invalidParameters, "The \(names[0]) parameter names no field")
    }

    /// Nearest first, with integer metres in `distances` (iOS sends no offset; one is honoured).
    private static func near(_ call: BackbeamCall, field: String, _ service: ServiceContext) throws -> BackbeamReply {
        let p = DataParameters(service: service, call: call)
        let entity = try p.entity()
        let lat = try p.coordinate("lat", -90...90)
        let lon = try p.coordinate("lon", -180...180)
        try checkField(field)
        let request = QueryRequest(space: call.space, entity: entity, query: try p.query(), limit: p.limit(),
                                   offset: p.offset(), geo: .near(field: field, lat: lat, lon: lon),
                                   schema: call.project.schema, maxJoinWindow: service.config.maxLimit)
        return BackbeamReply(body: PageBodies.list(try service.store.query(request)))
    }

    private static func bounding(_ call: BackbeamCall, field: String, _ service: ServiceContext) throws -> BackbeamReply {
        let p = DataParameters(service: service, call: call)
        let entity = try p.entity()
        let geo = GeoFilter.bounding(field: field, swLat: try p.coordinate("swlat", -90...90),
                                     swLon: try p.coordinate("swlon", -180...180),
                                     neLat: try p.coordinate("nelat", -90...90),
                                     neLon: try p.coordinate("nelon", -180...180))
        try checkField(field)
        let request = QueryRequest(space: call.space, entity: entity, query: try p.query(), limit: p.limit(),
                                   offset: p.offset(), geo: geo, schema: call.project.schema,
                                   maxJoinWindow: service.config.maxLimit)
        return BackbeamReply(body: PageBodies.list(try service.store.query(request)))
    }

    private static func checkField(_ field: String) throws {
        guard Identifiers.isFieldID(field) else {
            throw BackbeamError(.invalidQuery, "'\(field.prefix(64))' is not a location field")
        }
    }
}
