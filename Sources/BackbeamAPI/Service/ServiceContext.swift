import Logging

/// What endpoint handlers share: the configuration, the store and the projects.
public struct ServiceContext: Sendable {
    /// The `backbeam` section.
    public let config: BackbeamConfig
    /// The store.
    public let store: any BackbeamStore
    /// The projects.
    public let projects: ProjectDirectory
    /// BQL limits (§6.5).
    public let bqlLimits: BQLLimits
    /// The API's logger.
    public let logger: Logger
    /// The mail and push outboxes.
    public let outboxes: Outboxes
    /// Fetches social identities from the providers.
    public let providers: ProviderClient
    /// A bcrypt hash of a random password at the configured cost: a login with an unknown email is checked
    /// against it, so that it takes as long as a wrong password (§5.4.2).
    public let dummyPasswordHash: String
    /// Parsed `q` texts: an application repeats a few queries with other `params`, and parsing was about a
    /// tenth of a list query's own work. Bounded like the compiled queries (`backbeam.queryPlanCacheSize`).
    let parsedQueries: BoundedCache<String, BQLQuery>
}
