import Core
import Storage
import Synchronization

/// The Backbeam store on the daemon's SQLite database (tables `bb_*`, Migrations/0005_backbeam.sql).
///
/// Writes run as jobs on Storage's single writer (group commit): one request is one job, so one
/// transaction, answered only once it is durable. Reads run on the reader pool; a query and its joins read
/// one snapshot (§7.1).
public final class SQLiteBackbeamStore: BackbeamStore {
    let storage: Storage
    /// Where file content lives (§5.3); nil for a store without files.
    let blobs: BlobStore?
    /// Field catalogues by space, as last read, with the generation they were read at.
    /// Behind a pthread mutex, as `BoundedCache` is (every list query reads it).
    private let catalogues = Locked<[SpaceID: (generation: UInt64, catalogue: FieldCatalogue)]>([:])
    /// Raised after every commit that changed a catalogue; cached catalogues of older generations are read
    /// again. It is read before a catalogue is loaded, so a load that raced a commit is tagged old.
    private let catalogueGeneration = Atomic<UInt64>(0)
    /// Statement texts of list queries by shape (`QueryPlanCache`).
    let queryPlans: QueryPlanCache
    /// Totals of list queries until the database changes (`CountCache`).
    let counts: CountCache

    /// A store on `storage`, whose migrations have run, keeping file content in `blobs`, the compiled
    /// texts of up to `queryPlanCacheSize` query shapes and the totals of up to `countCacheSize` queries
    /// per read connection (0: none), whose hits and misses go to `metrics` when given.
    public init(storage: Storage, blobs: BlobStore? = nil, queryPlanCacheSize: Int = BackbeamConfig.defaultQueryPlanCacheSize,
                countCacheSize: Int = BackbeamConfig.defaultCountCacheSize, metrics: MetricsRegistry? = nil) {
        self.storage = storage
        self.blobs = blobs
        queryPlans = QueryPlanCache(capacity: queryPlanCacheSize)
        counts = CountCache(capacity: countCacheSize, metrics: metrics)
    }

    // MARK: - Projects

    public func createProject(name: String, keys: [BackbeamEnvironment: KeyPair], now: Int64) throws -> Bool {
        try storage.writeAndWait { ctx -> Bool in
            let db = ctx.db
            guard try db.queryOne("SELECT 1 FROM bb_projects WHERE name = ?", [.text(name)]) == nil else { return false }
            try db.run("INSERT INTO bb_projects (name, created_at) VALUES (?, ?)", [.text(name), .integer(now)])
            for env in BackbeamEnvironment.allCases {
                if let pair = keys[env] {
                    try db.run("INSERT INTO bb_keys (project, env, shared_key, secret, created_at) VALUES (?, ?, ?, ?, ?)",
                               [.text(name), .text(env.rawValue), .text(pair.key), .text(pair.secret), .integer(now)])
                }
                try db.run("INSERT OR IGNORE INTO bb_spaces (project, env) VALUES (?, ?)", [.text(name), .text(env.rawValue)])
            }
            return true
        }
    }

    public func createdProject(named name: String) throws -> StoredProject? {
        try storage.read { db -> StoredProject? in
            guard let row = try db.queryOne("SELECT created_at FROM bb_projects WHERE name = ?", [.text(name)]) else {
                return nil
            }
            var keys: [BackbeamEnvironment: [KeyPair]] = [:]
            for key in try db.query("SELECT env, shared_key, secret FROM bb_keys WHERE project = ? ORDER BY created_at, shared_key",
                                    [.text(name)]) {
                guard let env = key[0].string.flatMap(BackbeamEnvironment.init(rawValue:)),
                      let shared = key[1].string, let secret = key[2].string else { continue }
                keys[env, default: []].append(KeyPair(key: shared, secret: secret))
            }
            return StoredProject(name: name, createdAt: row[0].int64 ?? 0, keys: keys)
        }
    }

    public func createdProjectNames() throws -> [String] {
        try storage.read { db in
            try db.query("SELECT name FROM bb_projects ORDER BY name").compactMap { $0[0].string }
        }
    }

    public func addKey(project: String, env: BackbeamEnvironment, pair: KeyPair, now: Int64) throws -> Bool {
        try storage.writeAndWait { ctx -> Bool in
            guard try ctx.db.queryOne("SELECT 1 FROM bb_projects WHERE name = ?", [.text(project)]) != nil else { return false }
            try ctx.db.run("INSERT INTO bb_keys (project, env, shared_key, secret, created_at) VALUES (?, ?, ?, ?, ?)",
                           [.text(project), .text(env.rawValue), .text(pair.key), .text(pair.secret), .integer(now)])
            return true
        }
    }

    public func revokeKey(project: String, env: BackbeamEnvironment, key: String) throws -> Bool {
        try storage.writeAndWait { ctx -> Bool in
            try ctx.db.run("DELETE FROM bb_keys WHERE project = ? AND env = ? AND shared_key = ?",
                           [.text(project), .text(env.rawValue), .text(key)]) > 0
        }
    }

    public func space(project: String, env: BackbeamEnvironment, create: Bool) throws -> SpaceID? {
        let args: [SQLValue] = [.text(project), .text(env.rawValue)]
        if let id = try storage.readStatement({ db in
            try db.queryOne("SELECT id FROM bb_spaces WHERE project = ? AND env = ?", args)?[0].int64
        }) {
            return SpaceID(id)
        }
        guard create else { return nil }
        return try storage.writeAndWait { ctx -> SpaceID in
            try ctx.db.run("INSERT OR IGNORE INTO bb_spaces (project, env) VALUES (?, ?)", args)
            let id = try ctx.db.queryOne("SELECT id FROM bb_spaces WHERE project = ? AND env = ?", args)?[0].int64
            return SpaceID(id ?? 0)
        }
    }

    // MARK: - Sessions

    public func sessionUser(space: SpaceID, tokenHash: String, minCreatedAt: Int64?) throws -> String? {
        try storage.readStatement { db -> String? in
            let row = try db.queryOne("""
                SELECT o.id, s.created_at FROM bb_sessions s JOIN bb_objects o ON o.seq = s.object
                WHERE s.token_hash = ? AND s.space = ?
                """, [.text(tokenHash), .integer(space.value)])
            guard let row, let id = row[0].string else { return nil }
            if let minCreatedAt, (row[1].int64 ?? 0) < minCreatedAt { return nil }
            return id
        }
    }

    public func revokeSessions(space: SpaceID, userID: String) throws -> Int {
        try storage.writeAndWait { ctx -> Int in
            try ctx.db.run("""
                DELETE FROM bb_sessions WHERE object = (SELECT seq FROM bb_objects WHERE space = ? AND id = ?)
                """, [.integer(space.value), .text(userID)])
        }
    }

    // MARK: - Catalogue

    public func catalogue(space: SpaceID) throws -> FieldCatalogue {
        try generationalCatalogue(space: space).catalogue
    }

    /// The catalogue of `space` with the generation it was read at (the query plan cache's keys carry it).
    func generationalCatalogue(space: SpaceID) throws -> (generation: UInt64, catalogue: FieldCatalogue) {
        let generation = catalogueGeneration.load(ordering: .acquiring)
        if let cached = catalogues.withLock({ $0[space] }), cached.generation == generation {
            return cached
        }
        let loaded = try storage.read { db in try Self.loadCatalogue(db, space: space) }
        catalogues.withLock { $0[space] = (generation, loaded) }
        return (generation, loaded)
    }

    /// Marks every cached catalogue stale and forgets the compiled queries; called after a commit that
    /// changed a catalogue or an index.
    func catalogueChanged() {
        catalogueGeneration.add(1, ordering: .releasing)
        queryPlans.removeAll()
    }

    /// The catalogue of `space` as `db` sees it (entities without fields included).
    static func loadCatalogue(_ db: Database, space: SpaceID) throws -> FieldCatalogue {
        var catalogue = FieldCatalogue()
        for row in try db.query("SELECT entity FROM bb_entities WHERE space = ?", [.integer(space.value)]) {
            if let entity = row[0].string { catalogue.entities[entity] = [:] }
        }
        for row in try db.query("""
            SELECT f.id, f.entity, f.name, f.type, f.many, f.target,
                   EXISTS (SELECT 1 FROM bb_indexes i WHERE i.field = f.id)
            FROM bb_fields f WHERE f.space = ?
            """, [.integer(space.value)]) {
            guard let id = row[0].int64, let entity = row[1].string, let name = row[2].string else { continue }
            let type = row[3].string.flatMap(FieldType.init(rawValue:))
            catalogue.entities[entity, default: [:]][name] = FieldInfo(id: id, name: name, type: type,
                                                                        many: row[4].bool ?? false, target: row[5].string,
                                                                        indexed: row[6].bool ?? false)
        }
        return catalogue
    }
}
