/// The whole URL surface of the Parse API below the mount, one resource per file.
enum ParseRoutes {
    static func registerAll(_ t: inout RouteTable) {
        ClassesRoutes.register(&t)
        BatchRoutes.register(&t)
        UsersRoutes.register(&t)
        LoginRoutes.register(&t)
        SessionsRoutes.register(&t)
        RolesRoutes.register(&t)
        InstallationsRoutes.register(&t)
        FileRoutes.register(&t)
        SchemasRoutes.register(&t)
        ConfigRoutes.register(&t)
        AggregateRoutes.register(&t)
        HealthRoutes.register(&t)
        CloudRoutes.register(&t)
    }

    /// The read-only master key's refusal for object writes (spec §3.4).
    static func readOnly(_ op: String) -> RouteOptions {
        RouteOptions(readOnlyDenial: "read-only masterKey isn't allowed to perform the \(op) operation.", batchable: true)
    }

    static let batchableRead = RouteOptions(batchable: true)
}
