/// `POST /user/<provider>/signup` (§5.4.6): the token is verified with the provider, then the identity
/// logs its user in, is linked to the `auth` user, or creates a user.
enum SocialRoutes {
    static func register(on table: EndpointTable, _ service: ServiceContext) {
        table.on("POST", "/user/:provider/signup", EndpointOptions(establishesSession: true)) { call in
            guard let provider = SocialProvider(rawValue: call.path("provider")) else {
                throw BackbeamError(.unknownSocialSignupProvider)
            }
            let settings = (call.project.users.social[provider] ?? ProviderSettings()).over(service.config.social[provider])
            let identity = try service.providers.identity(provider, settings: settings, parameters: call.parameters)
            let (auth, hash) = UserSecrets.make()
            let outcome = try service.store.socialLogin(space: call.space, SocialLogin(
                provider: provider.short, providerID: identity.id, loginData: identity.loginData, authUser: call.authUser,
                sessionHash: hash, now: call.now, limits: service.config.modelLimits))
            switch outcome {
            case .created(let id):
                return try UserReplies.user(service, call, id: id, auth: auth, httpStatus: 201)
            case .returning(let id), .linked(let id):
                // A success for every SDK: the returning user (isNew = false).
                return try UserReplies.user(service, call, id: id, auth: auth, status: .userAlreadyExists)
            case .linkedElsewhere:
                throw BackbeamError(.identityAlreadyLinked, "The identity is linked to another user")
            }
        }
    }
}
