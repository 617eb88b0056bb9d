/// The module layers of `docs/architecture.md`, as data: which module may import which.
///
/// Arrows point down: `quartet -> App -> API modules -> shared modules -> Core`. API modules never import each
/// other, shared modules never import an API module, and each C module is imported only by the module(s)
/// that wrap it. A module not listed here fails the check until it is placed in a layer, so a new module
/// cannot slip in without a decision about where it sits.
enum HouseRules {
    /// The four wire APIs. None may import another.
    static let apiModules: Set<String> = ["ParseAPI", "CouchAPI", "DatastoreAPI", "BackbeamAPI"]

    /// Shared building blocks under the APIs, with the shared modules each may import. `HTTP` and `Storage`
    /// never import each other: a module that needs both (the change feed) sits above them.
    static let sharedModules: [String: Set<String>] = [
        "HTTP": [],
        "Storage": [],
        "Auth": ["Storage"],
        "Files": ["HTTP", "Storage"],
        "QueryKit": [],
        "ChangeFeed": ["HTTP", "Storage"],
    ]

    /// C modules and the only project modules allowed to import them.
    static let cModules: [String: Set<String>] = [
        "CSQLite": ["Storage"],
        "CWALBuffer": ["Storage"],
        "COpenSSL": ["Core", "Auth", "HTTP"],
        "CCrypt": ["Auth"],
        "CZlib": ["Core"],
        "CEventLoop": ["HTTP"],
        "CVips": ["Files"],
    ]

    /// Third-party and system modules any Swift module may import.
    static let external: Set<String> = [
        "Foundation", "FoundationEssentials", "Dispatch", "Glibc", "Musl", "Darwin", "Synchronization",
        "Logging",
    ]

    /// What the executable may import besides `external`: it parses arguments and calls `App`.
    static let executableImports: Set<String> = ["App", "ArgumentParser"]

    /// Every project module (Swift and C) the rules know.
    static var knownModules: Set<String> {
        apiModules.union(sharedModules.keys).union(cModules.keys).union(["Core", "App", "quartet"])
    }

    /// The project modules `module` may import, or nil when `module` is not placed in a layer.
    static func allowedImports(of module: String) -> Set<String>? {
        let cAllowed = Set(cModules.filter { $0.value.contains(module) }.keys)
        switch module {
        case "Core":
            return cAllowed
        case "quartet":
            return executableImports
        case "App":
            return cAllowed.union(["Core"]).union(sharedModules.keys).union(apiModules)
        default:
            if apiModules.contains(module) { return cAllowed.union(["Core"]).union(sharedModules.keys) }
            if let shared = sharedModules[module] { return cAllowed.union(["Core"]).union(shared) }
            return nil
        }
    }

    /// Folders whose Swift files may contain SQL text: the storage engine and every module's `Store/`.
    static func mayContainSQL(path: String) -> Bool {
        path.hasPrefix("Sources/Storage/") || path.contains("/Store/")
    }
}
