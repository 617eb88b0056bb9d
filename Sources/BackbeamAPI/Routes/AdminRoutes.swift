import Core
import HTTP
import Auth

/// The Backbeam admin endpoints under `/_quartet/admin/backbeam/` (§5.6), guarded by the server admin's HTTP
/// Basic credentials only: projects, key pairs, sessions, the field catalogue and declared indexes.
enum AdminRoutes {
    static func register(on group: RouteGroup, _ context: ServiceContext, serverAdmin: ServerAdmin?) {
        func route(_ method: HTTPMethod, _ pattern: String,
                   _ body: @escaping @Sendable (HTTPRequest, AdminParameters) throws -> HTTPResponse) {
            group.on(method, pattern, maxBodyBytes: AdminParameters.maxBodyBytes) { request in
                if let refusal = AdminReplies.refusal(request, serverAdmin) { return .response(refusal) }
                do {
                    return .response(try body(request, try AdminParameters(request)))
                } catch let failure as ProjectAdmin.Failure {
                    return .response(AdminReplies.error(status(of: failure), failure.description))
                } catch is AdminInputError {
                    return .response(AdminReplies.error(.badRequest, "The body must be a JSON object or a form"))
                } catch {
                    context.logger.error("backbeam admin request failed", metadata: ["error": "\(error)"])
                    return .response(AdminReplies.error(.internalServerError, "Internal error"))
                }
            }
        }
        AdminProjectRoutes.register(route, context)
        AdminEnvironmentRoutes.register(route, context)
        AdminOutboxRoutes.register(route, context)
    }

    static func status(of failure: ProjectAdmin.Failure) -> HTTPStatus {
        switch failure {
        case .invalidName: return .badRequest
        case .exists, .declared: return .conflict
        case .notFound: return .notFound
        }
    }

    typealias Register = (HTTPMethod, String, @escaping @Sendable (HTTPRequest, AdminParameters) throws -> HTTPResponse) -> Void

    /// The project named in the path, and the environment when the path has one.
    static func project(_ request: HTTPRequest, _ context: ServiceContext) throws -> Project {
        guard let name = request.parameter("project"), let project = try context.projects.project(named: name) else {
            throw ProjectAdmin.Failure.notFound
        }
        return project
    }

    static func environment(_ request: HTTPRequest, _ context: ServiceContext) throws -> (Project, BackbeamEnvironment, SpaceID) {
        let project = try project(request, context)
        guard let env = request.parameter("env").flatMap(BackbeamEnvironment.init(rawValue:)),
              let space = project.spaces[env] else { throw ProjectAdmin.Failure.notFound }
        return (project, env, space)
    }
}

/// `POST|GET /projects`, `GET /projects/<p>`, key pairs.
enum AdminProjectRoutes {
    static func register(_ route: AdminRoutes.Register, _ context: ServiceContext) {
        route(.post, "/projects") { _, params in
            let name = params["name"] ?? ""
            let declared = Set(context.config.projects.keys)
            let body = try ProjectAdmin.create(name: name, store: context.store, declared: declared,
                                               now: BackbeamClock.now())
            return AdminReplies.json(body, status: .created)
        }
        route(.get, "/projects") { _, _ in
            let list = try context.projects.all().map { entry in
                JSON.object(JSONObject([("project", .string(entry.name)), ("source", .string(entry.source.rawValue))]))
            }
            return AdminReplies.json(JSONObject([("projects", .array(list))]))
        }
        route(.get, "/projects/:project") { request, _ in
            let project = try AdminRoutes.project(request, context)
            return AdminReplies.json(ProjectAdmin.body(name: project.name, keys: project.keys))
        }
        route(.post, "/projects/:project/:env/keys") { request, _ in
            let (project, env, _) = try AdminRoutes.environment(request, context)
            guard project.source == .created else { throw ProjectAdmin.Failure.declared }
            let pair = KeyPair.generate(for: env)
            guard try context.store.addKey(project: project.name, env: env, pair: pair,
                                           now: BackbeamClock.now()) else { throw ProjectAdmin.Failure.notFound }
            context.projects.invalidate(project.name)
            return AdminReplies.json(ProjectAdmin.pairJSON(pair), status: .created)
        }
        route(.delete, "/projects/:project/:env/keys/:key") { request, _ in
            let (project, env, _) = try AdminRoutes.environment(request, context)
            guard project.source == .created else { throw ProjectAdmin.Failure.declared }
            let revoked = try context.store.revokeKey(project: project.name, env: env, key: request.parameter("key") ?? "")
            context.projects.invalidate(project.name)
            return AdminReplies.json(JSONObject([("revoked", .bool(revoked))]))
        }
    }
}

/// Per-environment endpoints: sessions, the catalogue, declared indexes.
enum AdminEnvironmentRoutes {
    static func register(_ route: AdminRoutes.Register, _ context: ServiceContext) {
        route(.post, "/projects/:project/:env/users/:id/revoke-sessions") { request, _ in
            let (_, _, space) = try AdminRoutes.environment(request, context)
            let revoked = try context.store.revokeSessions(space: space, userID: request.parameter("id") ?? "")
            return AdminReplies.json(JSONObject([("revoked", .int(revoked))]))
        }
        route(.get, "/projects/:project/:env/schema") { request, _ in
            let (project, _, space) = try AdminRoutes.environment(request, context)
            return AdminReplies.json(CatalogueJSON.render(try context.store.catalogue(space: space), schema: project.schema))
        }
        route(.post, "/projects/:project/:env/indexes") { request, params in
            let (_, _, space) = try AdminRoutes.environment(request, context)
            guard let entity = params["entity"], let field = params["field"], Identifiers.isEntityID(entity),
                  Identifiers.isFieldID(field), !Identifiers.isReservedFieldID(field) else {
                return AdminReplies.error(.badRequest, "entity and field must be an entity id and a field id")
            }
            let created = try context.store.declareIndex(space: space, entity: entity, field: field,
                                                         now: BackbeamClock.now())
            return AdminReplies.json(JSONObject([("entity", .string(entity)), ("field", .string(field))]),
                                     status: created ? .created : .ok)
        }
        route(.get, "/projects/:project/:env/indexes") { request, _ in
            let (_, _, space) = try AdminRoutes.environment(request, context)
            let list = try context.store.indexes(space: space).map {
                JSON.object(JSONObject([("entity", .string($0.entity)), ("field", .string($0.field))]))
            }
            return AdminReplies.json(JSONObject([("indexes", .array(list))]))
        }
        route(.delete, "/projects/:project/:env/indexes/:entity/:field") { request, _ in
            let (_, _, space) = try AdminRoutes.environment(request, context)
            let dropped = try context.store.dropIndex(space: space, entity: request.parameter("entity") ?? "",
                                                      field: request.parameter("field") ?? "")
            return AdminReplies.json(JSONObject([("dropped", .bool(dropped))]))
        }
    }
}

/// The effective field catalogue (§4.3) as the admin API shows it:
/// `{"entities":{"place":{"name":{"type":"t","indexed":true},"author":{"type":"r","many":false,"to":"user"}}}}`.
enum CatalogueJSON {
    static func render(_ catalogue: FieldCatalogue, schema: ProjectSchema?) -> JSONObject {
        var entities = JSONObject()
        let names = Set(catalogue.entities.keys).union(schema?.entities.keys.map { $0 } ?? [])
        for entity in names.sorted() {
            var fields = JSONObject()
            var all: [String: (type: FieldType?, many: Bool, to: String?, indexed: Bool)] = [:]
            for (name, info) in catalogue.entities[entity] ?? [:] {
                all[name] = (info.type, info.many, info.target, info.indexed)
            }
            for (name, declared) in schema?.entities[entity]?.fields ?? [:] {
                all[name] = (declared.type, declared.many, declared.target, all[name]?.indexed ?? false)
            }
            for (name, entry) in all.sorted(by: { $0.key < $1.key }) {
                var field = JSONObject()
                field["type"] = entry.type.map { .string($0.rawValue) } ?? .null
                if entry.type == .reference {
                    field["many"] = .bool(entry.many)
                    if let to = entry.to { field["to"] = .string(to) }
                }
                if entry.indexed { field["indexed"] = .bool(true) }
                fields[name] = .object(field)
            }
            entities[entity] = .object(fields)
        }
        return JSONObject([("entities", .object(entities))])
    }
}
