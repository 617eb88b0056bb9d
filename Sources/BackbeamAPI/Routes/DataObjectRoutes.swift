/// `POST /data/:entity` (create, §5.2.5), `GET /data/:entity/:id` (read with joins, §5.2.4),
/// `PUT /data/:entity/:id` (update, §5.2.6) and `DELETE /data/:entity/:id` (§5.2.7).
enum DataObjectRoutes {
    static func register(on table: EndpointTable, _ service: ServiceContext) {
        table.on("POST", "/data/:entity", EndpointOptions(establishesSession: true)) { call in
            let p = DataParameters(service: service, call: call)
            let entity = try p.entity()
            // A file is created by uploading its content (§5.3.1).
            if entity == "file" { throw BackbeamError(.missingFile) }
            var commands = try CommandParser.parse(call.parameters, entity: entity)
            let credentials = try UserCredentials.extract(&commands, entity: entity, cost: service.config.bcryptCost)
            // Email signup (§5.4.1): a session, unless the email awaits mandatory verification.
            var signup = entity == "user" ? UserSignup.grant(service, call, credentials) : nil
            var auth: String?
            if signup != nil && !(signup?.pending ?? false) {
                let (code, hash) = UserSecrets.make()
                auth = code
                signup?.grant.sessionHash = hash
            }
            let record = try service.store.create(WriteRequest(space: call.space, entity: entity, commands: commands,
                                                               schema: call.project.schema, credentials: credentials,
                                                               grant: signup?.grant ?? UserGrant(),
                                                               now: call.now, limits: service.config.modelLimits))
            if signup?.grant.mail != nil { service.outboxes.mailQueued() }
            return BackbeamReply(status: 201, body: PageBodies.object(id: record.id, objects: [ResponseObject(record: record)],
                                                                      auth: auth,
                                                                      status: signup?.pending == true ? .pendingValidation : .success))
        }
        // Without joins, the object is one point read: answered on the I/O thread when a connection is at hand.
        let readAttempt: EndpointAttempt = { call in
            guard let entity = DataParameters.entity(of: call), let id = DataParameters.objectID(of: call),
                  call.parameters.value("joins").map({ $0.trimmingSpaces().isEmpty }) ?? true,
                  let rendered = try? service.store.renderedObjectIfAtHand(space: call.space, entity: entity, id: id)
            else { return nil }
            return BackbeamReply(body: PageBodies.object(id: id, objects: [], rendered: rendered))
        }
        table.on("GET", "/data/:entity/:id", EndpointOptions(attempt: readAttempt)) { call in
            let p = DataParameters(service: service, call: call)
            let entity = try p.entity()
            let id = try p.objectID()
            let joins = try p.joins()
            guard let page = try service.store.read(space: call.space, entity: entity, id: id, joins: joins,
                                                    schema: call.project.schema, maxJoinWindow: service.config.maxLimit) else {
                throw BackbeamError(.objectNotFound)
            }
            return BackbeamReply(body: PageBodies.object(id: id, objects: page.objects, rendered: page.renderedObjects))
        }
        table.on("PUT", "/data/:entity/:id") { call in
            let p = DataParameters(service: service, call: call)
            let entity = try p.entity()
            let id = try p.objectID()
            var commands = try CommandParser.parse(call.parameters, entity: entity)
            let credentials = try UserCredentials.extract(&commands, entity: entity, cost: service.config.bcryptCost)
            // Credentials of an existing user change only with that user's own session (§3.7).
            if !credentials.isEmpty && call.authUser != id { throw BackbeamError(.invalidCredentials) }
            if commands.isEmpty && credentials.isEmpty {
                // Nothing to change: the object as stored, updated_at untouched (§5.2.6).
                guard let page = try service.store.read(space: call.space, entity: entity, id: id, joins: nil,
                                                        schema: call.project.schema, maxJoinWindow: 0) else {
                    throw BackbeamError(.objectNotFound)
                }
                return BackbeamReply(body: PageBodies.object(id: id, objects: page.objects, rendered: page.renderedObjects))
            }
            // A changed login email is verified again in optional and mandatory mode (§8).
            let change = entity == "user" ? UserSignup.grant(service, call, credentials) : nil
            guard let record = try service.store.update(WriteRequest(space: call.space, entity: entity, id: id,
                                                                     commands: commands, schema: call.project.schema,
                                                                     credentials: credentials, grant: change?.grant ?? UserGrant(),
                                                                     now: call.now,
                                                                     limits: service.config.modelLimits)) else {
                throw BackbeamError(.objectNotFound)
            }
            if change?.grant.mail != nil { service.outboxes.mailQueued() }
            return BackbeamReply(body: PageBodies.object(id: id, objects: [ResponseObject(record: record)]))
        }
        table.on("DELETE", "/data/:entity/:id") { call in
            let p = DataParameters(service: service, call: call)
            let entity = try p.entity()
            let id = try p.objectID()
            guard let record = try service.store.delete(space: call.space, entity: entity, id: id) else {
                throw BackbeamError(.objectNotFound)
            }
            return BackbeamReply(body: PageBodies.object(id: id, objects: [ResponseObject(record: record)]))
        }
    }
}
