import Auth
import Core

/// `POST /user/email/login`, `/lostpassword`, `/verify` and `/setpassword` (§5.4.2–§5.4.5). Every one
/// establishes a session, so a stale `auth` of a previous user is ignored (§3.4 step 9).
enum UserEmailRoutes {
    static func register(on table: EndpointTable, _ service: ServiceContext) {
        let options = EndpointOptions(establishesSession: true)
        table.on("POST", "/user/email/login", options) { call in
            let email = try required(call, "email"), password = try required(call, "password")
            guard let login = try service.store.userLogin(space: call.space, email: email) else {
                // The same bcrypt work as a wrong password, so the answer time does not tell which
                // addresses have accounts (§5.4.2).
                _ = PasswordHasher.verify(password, hash: service.dummyPasswordHash)
                throw BackbeamError(.userNotFound)
            }
            guard PasswordHasher.verify(password, hash: login.passwordHash ?? service.dummyPasswordHash),
                  login.passwordHash != nil else {
                throw BackbeamError(.invalidCredentials, "The email or the password is wrong")
            }
            if call.project.users.confirmation == .mandatory && !login.verified {
                return try UserReplies.user(service, call, id: login.id, auth: nil, status: .pendingValidation)
            }
            let (auth, hash) = UserSecrets.make()
            guard try service.store.openSession(space: call.space, userID: login.id, sessionHash: hash, now: call.now) else {
                // Deleted between the two steps.
                throw BackbeamError(.userNotFound)
            }
            return try UserReplies.user(service, call, id: login.id, auth: auth)
        }
        table.on("POST", "/user/email/lostpassword", options) { call in
            let email = try required(call, "email")
            let (code, issued) = UserSecrets.issue(.reset, now: call.now)
            let mail = MailTemplates.message(kind: .reset, email: email.trimmingSpaces(), code: code, project: call.project.name,
                                             env: call.env, publicUrl: service.config.publicUrl, from: call.project.users.from,
                                             templates: call.project.users.templates)
            guard try service.store.issueCode(space: call.space, email: email, code: issued, mail: mail, now: call.now) != nil else {
                throw BackbeamError(.userNotFound)
            }
            service.outboxes.mailQueued()
            return BackbeamReply(body: JSON.object(ResponseBodies.success()).serializedBytes())
        }
        table.on("POST", "/user/email/verify", options) { call in
            let code = try required(call, "code")
            let (auth, hash) = UserSecrets.make()
            guard let id = try service.store.redeemCode(space: call.space, CodeRedemption(
                codeHash: UserSecrets.hash(code), kinds: [.verification, .reset], sessionHash: hash, now: call.now)) else {
                throw BackbeamError(.invalidCode)
            }
            return try UserReplies.user(service, call, id: id, auth: auth)
        }
        table.on("POST", "/user/email/setpassword", options) { call in
            let code = try required(call, "code")
            guard let password = call.parameters.value("password") else {
                throw BackbeamError(.missingParameters, "The password parameter is missing")
            }
            let passwordHash = try UserCredentials.hashPassword(password, cost: service.config.bcryptCost)
            let (auth, hash) = UserSecrets.make()
            guard let id = try service.store.redeemCode(space: call.space, CodeRedemption(
                codeHash: UserSecrets.hash(code), kinds: [.reset], passwordHash: passwordHash, sessionHash: hash,
                now: call.now)) else {
                throw BackbeamError(.invalidCode)
            }
            return try UserReplies.user(service, call, id: id, auth: auth)
        }
    }

    /// A parameter that must be present and non-empty, else 400 `MissingParameters`.
    static func required(_ call: BackbeamCall, _ name: String) throws -> String {
        guard let value = call.parameters.value(name), !value.isEmpty else {
            throw BackbeamError(.missingParameters, "The \(name) parameter is missing")
        }
        return value
    }
}

/// The answer of login, verify, setpassword and social signup (§5.4.2): the user with the joins of `joins`
/// (or `q` when `joins` is absent) applied, its id, and the new session code.
enum UserReplies {
    static func user(_ service: ServiceContext, _ call: BackbeamCall, id: String, auth: String?,
                     status: BackbeamStatus = .success, httpStatus: Int = 200) throws -> BackbeamReply {
        let p = DataParameters(service: service, call: call)
        let joins = call.parameters.value("joins") != nil ? try p.joins("joins") : try p.joins("q")
        guard let page = try service.store.read(space: call.space, entity: "user", id: id, joins: joins,
                                                schema: call.project.schema, maxJoinWindow: service.config.maxLimit) else {
            throw BackbeamError(.userNotFound)
        }
        return BackbeamReply(status: httpStatus, body: PageBodies.object(id: id, objects: page.objects,
                                                                         rendered: page.renderedObjects, auth: auth,
                                                                         status: status))
    }
}
