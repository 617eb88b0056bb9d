import Core

/// Creating projects and their keys, shared by the CLI (`quartet backbeam create-project`) and the admin API
/// (§5.6).
public enum ProjectAdmin {
    /// Why a project could not be created or changed.
    public enum Failure: Error, Equatable, CustomStringConvertible {
        /// The name breaks the rule of §1.3.
        case invalidName
        /// A project of that name exists (in the configuration or the database).
        case exists
        /// No such project.
        case notFound
        /// The project is declared in the configuration, which is authoritative for its keys.
        case declared

        public var description: String {
            switch self {
            case .invalidName: return "project names are 1-50 characters of a-z, 0-9 and '-', not starting or ending with '-'"
            case .exists: return "a project with that name already exists"
            case .notFound: return "no such project"
            case .declared: return "the project is declared in the configuration; change its keys there"
            }
        }
    }

    /// Creates `name` with one generated key pair per environment (§3.1) and returns the create response
    /// `{"project":..,"environments":{"dev":{"keys":[{"key","secret"}]},"pro":{...}}}` (secrets appear only here).
    public static func create(name: String, store: any BackbeamStore, declared: Set<String>, now: Int64) throws -> JSONObject {
        guard BackbeamConfig.isValidProjectName(name) else { throw Failure.invalidName }
        guard !declared.contains(name) else { throw Failure.exists }
        var keys: [BackbeamEnvironment: KeyPair] = [:]
        for env in BackbeamEnvironment.allCases { keys[env] = KeyPair.generate(for: env) }
        guard try store.createProject(name: name, keys: keys, now: now) else { throw Failure.exists }
        return body(name: name, keys: keys.mapValues { [$0] })
    }

    /// The create-response shape for a project's keys.
    public static func body(name: String, keys: [BackbeamEnvironment: [KeyPair]]) -> JSONObject {
        var environments = JSONObject()
        for env in BackbeamEnvironment.allCases {
            let pairs = (keys[env] ?? []).map { JSON.object(pairJSON($0)) }
            environments[env.rawValue] = .object(JSONObject([("keys", .array(pairs))]))
        }
        return JSONObject([("project", .string(name)), ("environments", .object(environments))])
    }

    /// `{"key":..,"secret":..}`.
    public static func pairJSON(_ pair: KeyPair) -> JSONObject {
        JSONObject([("key", .string(pair.key)), ("secret", .string(pair.secret))])
    }
}
