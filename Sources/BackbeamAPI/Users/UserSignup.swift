/// What a write of a `user` issues for its login email (§5.4.1, §8): in `optional` and `mandatory` mode a
/// new email gets a verification code and its mail; in `mandatory` mode the signup then waits for the
/// verification (`PendingValidation`, no session).
enum UserSignup {
    static func grant(_ service: ServiceContext, _ call: BackbeamCall, _ credentials: CredentialChange)
        -> (grant: UserGrant, pending: Bool) {
        let mode = call.project.users.confirmation
        guard mode != .none, case .set(let email)? = credentials.email else { return (UserGrant(), false) }
        let (code, issued) = UserSecrets.issue(.verification, now: call.now)
        let mail = MailTemplates.message(kind: .verification, email: email, code: code, project: call.project.name,
                                         env: call.env, publicUrl: service.config.publicUrl, from: call.project.users.from,
                                             templates: call.project.users.templates)
        return (UserGrant(code: issued, mail: mail), mode == .mandatory)
    }
}
