import Core

/// One project as requests see it: where it comes from, its keys and schema, and its two spaces.
public struct Project: Sendable {
    /// Where the project is defined (§5.6 `source`).
    public enum Source: String, Sendable {
        /// Declared in the configuration (authoritative, keys included).
        case config
        /// Created with the CLI or the admin API (stored in the database).
        case created
    }

    /// The name.
    public var name: String
    /// Configuration or database.
    public var source: Source
    /// Key pairs per environment.
    public var keys: [BackbeamEnvironment: [KeyPair]] {
        didSet { signing = Self.prepare(keys) }
    }
    /// The secrets of `keys`, prepared for signing.
    private var signing: [BackbeamEnvironment: [(key: String, secret: SigningSecret)]]
    /// The schema (declared projects only).
    public var schema: ProjectSchema?
    /// Email confirmation, sender and social provider settings (the defaults for created projects).
    public var users = UserSettings()
    /// The data namespace of each environment.
    public var spaces: [BackbeamEnvironment: SpaceID]
    /// The nonce replay cache of each environment (§3.4 step 8), looked up once here rather than in a
    /// shared registry on every request.
    public var nonces: [BackbeamEnvironment: NonceReplayCache] = [:]

    /// A project.
    public init(name: String, source: Source, keys: [BackbeamEnvironment: [KeyPair]], schema: ProjectSchema?,
                spaces: [BackbeamEnvironment: SpaceID], nonces: [BackbeamEnvironment: NonceReplayCache] = [:]) {
        self.name = name
        self.source = source
        self.keys = keys
        self.signing = Self.prepare(keys)
        self.schema = schema
        self.spaces = spaces
        self.nonces = nonces
    }

    private static func prepare(_ keys: [BackbeamEnvironment: [KeyPair]]) -> [BackbeamEnvironment: [(key: String, secret: SigningSecret)]] {
        keys.mapValues { pairs in pairs.map { ($0.key, SigningSecret($0.secret)) } }
    }

    /// The secret of `key` in `env`, nil for any other key (a `dev` key on `pro` included).
    public func secret(for key: String, env: BackbeamEnvironment) -> String? {
        keys[env]?.first { $0.key.utf8.elementsEqual(key.utf8) }?.secret
    }

    /// The prepared secret of `key` in `env`, nil for any other key.
    public func signingSecret(for key: String, env: BackbeamEnvironment) -> SigningSecret? {
        // Compared on bytes with one memcmp: every signed request looks its key up here.
        signing[env]?.first { BackbeamParameters.sameBytes($0.key, key) }?.secret
    }
}

/// Finds projects by name: the declared ones from the configuration, the created ones from the store
/// (cached; a project created by the CLI in another process is found on the first request that names it,
/// since a miss always asks the database).
public final class ProjectDirectory: Sendable {
    private let declared: [String: Project]
    private let store: any BackbeamStore
    private let created = Locked<[String: Project]>([:])
    private let nonces: NonceReplayCaches

    /// The directory over the declared projects (whose spaces must exist) and the store; every project's
    /// environments get their replay caches from `nonces`, which outlive a reload of the project.
    init(declared: [String: Project], store: any BackbeamStore, nonces: NonceReplayCaches) {
        self.nonces = nonces
        self.declared = declared.mapValues { project in
            var project = project
            project.nonces = ProjectDirectory.caches(project.name, nonces)
            return project
        }
        self.store = store
    }

    private static func caches(_ name: String, _ nonces: NonceReplayCaches) -> [BackbeamEnvironment: NonceReplayCache] {
        var out: [BackbeamEnvironment: NonceReplayCache] = [:]
        for env in BackbeamEnvironment.allCases { out[env] = nonces.cache(project: name, env: env.rawValue) }
        return out
    }

    /// The project `name`, or nil when it exists nowhere. A name in both sources is the declared project.
    public func project(named name: String) throws -> Project? {
        if let project = declared[name] { return project }
        if let cached = created.withLock({ $0[name] }) { return cached }
        guard BackbeamConfig.isValidProjectName(name), let stored = try store.createdProject(named: name) else { return nil }
        var spaces: [BackbeamEnvironment: SpaceID] = [:]
        for env in BackbeamEnvironment.allCases {
            spaces[env] = try store.space(project: name, env: env, create: true)
        }
        let project = Project(name: name, source: .created, keys: stored.keys, schema: nil, spaces: spaces,
                              nonces: Self.caches(name, nonces))
        created.withLock { $0[name] = project }
        return project
    }

    /// `project(named:)` when it is known without storage (declared, or created and seen before); nil
    /// otherwise, also for projects that exist.
    func projectInMemory(named name: String) -> Project? {
        if let project = declared[name] { return project }
        return created.withLock { $0[name] }
    }

    /// True for a project declared in the configuration.
    public func isDeclared(_ name: String) -> Bool { declared[name] != nil }

    /// Every project name with its source, sorted.
    public func all() throws -> [(name: String, source: Project.Source)] {
        var names = Set(declared.keys)
        var out = declared.keys.map { (name: $0, source: Project.Source.config) }
        for name in try store.createdProjectNames() where !names.contains(name) {
            names.insert(name)
            out.append((name, .created))
        }
        return out.sorted { $0.name < $1.name }
    }

    /// Forgets the cached copy of a created project (after its keys changed).
    public func invalidate(_ name: String) {
        _ = created.withLock { $0.removeValue(forKey: name) }
    }
}
