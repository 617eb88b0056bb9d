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
}
