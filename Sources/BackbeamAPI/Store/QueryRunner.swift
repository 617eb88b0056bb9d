import Core
import Storage

/// Runs one compiled query on one connection (a reader's snapshot, or the writer inside a remove job):
/// the page of main objects, the total count, then the joins (§5.2, §6).
struct QueryRunner {
    let db: Database
    let catalogue: FieldCatalogue
    let request: QueryRequest
    let compiler: BQLCompiler
    /// Compiled statement texts by query shape, and the catalogue generation `catalogue` was read at; nil
    /// to compile every query (remove-by-query, tests).
    let plans: (cache: QueryPlanCache, catalogueGeneration: UInt64)?
    /// Totals of earlier queries still exact in this snapshot (`CountCache`); nil to count every time.
    let counts: CountCache?

    init(db: Database, catalogue: FieldCatalogue, request: QueryRequest,
         plans: (cache: QueryPlanCache, catalogueGeneration: UInt64)? = nil, counts: CountCache? = nil) {
        self.db = db
        self.catalogue = catalogue
        self.request = request
        self.plans = plans
        self.counts = counts
        compiler = BQLCompiler(space: request.space, catalogue: catalogue, schema: request.schema,
                               bound: request.query, limits: BQLLimits())
    }

    var query: BQLQuery { request.query.query }

    /// A to-one join (without a window) read by the page statement: the LEFT JOIN of the reference (alias
    /// r<position>), and unless `keyOnly` of the target object too (alias t<position>).
    struct ToOneJoin {
        /// The join's position in the query.
        var position: Int
        var from: SQLFragment
        /// True when the page reads only the target's key (`r<position>.target`, one column) and the
        /// distinct targets are read after the page, each once (`readTargets`): joining the target object to
        /// every row sought it and extracted its eight columns for every row, also for the rows whose target
        /// an earlier row had (a page of 20 places has far fewer distinct authors). False: the target's eight
        /// columns (`ObjectRows.columns`).
        var keyOnly: Bool

        /// The number of columns the join adds to the page's rows.
        var width: Int { keyOnly ? 1 : 8 }
    }

    /// The parts of the main statement shared by the page, the count and remove-by-query.
    struct Plan {
        var from: SQLFragment
        var filter: SQLFragment
        var order = ""
        var distance: SQLFragment?
        /// The relevance join of a `like` query (the page needs it for its order, the count does not).
        var relevance: SQLFragment?
        /// To-one joins read by the page statement itself (see `ToOneJoin`), their columns following the
        /// main ones in this order.
        var toOne: [ToOneJoin] = []
        /// A never-written or address-only location field: nothing can match.
        var empty = false
        /// The count's WHERE when the condition alone selects objects of the queried space and entity (see
        /// `selectsOwnEntity`): without the space and entity terms, a count over a declared index compares one
        /// key column per entry instead of three, about 40 % fewer instructions.
        var countFilter: SQLFragment?

        /// An empty plan whose fragments record their text, or (`recording` false) their values only.
        init(recording: Bool) {
            from = SQLFragment(recording: recording)
            filter = SQLFragment(recording: recording)
        }

        /// Whether some of the text was chosen by a bound value (then it is not reused for other values).
        var textDependsOnValues: Bool {
            from.textDependsOnValues || filter.textDependsOnValues || toOne.contains { $0.from.textDependsOnValues }
                || countFilter?.textDependsOnValues == true
        }
    }

    /// The plan of the query. Without `recording` only the bound values are collected, for statement texts
    /// already known from an earlier query of the same shape: every resolution, type check and error is
    /// the same either way.
    func plan(recording: Bool = true) throws -> Plan {
        var plan = Plan(recording: recording)
        plan.from.sql("FROM bb_objects o")
        var geoField: FieldInfo?
        if let geo = request.geo {
            guard let info = try locationField(geo.field) else {
                plan.empty = true
                return plan
            }
            geoField = info
            plan.from.sql(" JOIN bb_geo g ON g.object = o.seq AND g.field = ")
            plan.from.bind(.integer(info.id))
        }
        var orderTerms: [String] = []
        if case .near(_, let lat, let lon)? = request.geo {
            var distance = SQLFragment()
            GeoSQL.distance(lat: lat, lon: lon, into: &distance)
            plan.distance = distance
            orderTerms.append("dist")
        } else if let sort = query.sort {
            if let terms = try compiler.orderTerms(sort, entity: request.entity, alias: "o") { orderTerms.append(terms) }
        } else if let relevance = try relevanceJoin() {
            plan.relevance = relevance
            orderTerms.append("rel.rank IS NULL, rel.rank")
        }
        if let sort = query.sort, request.geo != nil {
            // A `sort by` in a near query is ignored (§5.2.2), but it must still be a valid one.
            _ = try compiler.orderTerms(sort, entity: request.entity, alias: "o")
        }
        if recording {
            orderTerms.append("o.created_at, o.id")
            plan.order = " ORDER BY " + orderTerms.joined(separator: ", ")
        }
        // Whether the page may be written while its rows are read (`run`): then the targets of to-one joins
        // without `having` are read after the page, each once; otherwise the page statement joins them.
        let streamable = query.joins.allSatisfy { $0.window == nil && $0.fetch.isEmpty }
        for (position, join) in query.joins.enumerated() where join.window == nil {
            guard case .field(let info, .toOne) = try compiler.resolve(.field(join.field), entity: request.entity,
                                                                        offset: join.offset) else { continue }
            var from = SQLFragment(recording: recording)
            from.sql(" LEFT JOIN bb_refs r\(position) ON r\(position).owner = o.seq AND r\(position).field = ")
            from.bind(.integer(info.id))
            // Without `having` the page reads only the target's key, and each distinct target is read once
            // after the page (`ToOneJoin.keyOnly`); a `having` decides per row whether there is a target, so
            // the target is joined to the row.
            let keyOnly = join.having == nil && streamable
            if let having = join.having {
                from.sql(" LEFT JOIN bb_objects t\(position) ON t\(position).seq = r\(position).target AND ")
                try compiler.condition(having, entity: info.target ?? "", alias: "t\(position)", into: &from)
            } else if !keyOnly {
                from.sql(" LEFT JOIN bb_objects t\(position) ON t\(position).seq = r\(position).target")
            }
            plan.toOne.append(ToOneJoin(position: position, from: from, keyOnly: keyOnly))
        }

        plan.filter.sql(" WHERE o.space = ")
        plan.filter.bind(.integer(request.space.value))
        plan.filter.sql(" AND o.entity = ")
        plan.filter.bind(.text(request.entity))
        if case .bounding(_, let swLat, let swLon, let neLat, let neLon)? = request.geo, geoField != nil {
            plan.filter.sql(" AND g.lat >= ")
            plan.filter.bind(.real(swLat))
            plan.filter.sql(" AND g.lat <= ")
            plan.filter.bind(.real(neLat))
            // A box whose west edge lies east of its east edge crosses the antimeridian (§5.2.3).
            plan.filter.sql(swLon > neLon ? " AND (g.lon >= " : " AND g.lon >= ")
            plan.filter.bind(.real(swLon))
            plan.filter.sql(swLon > neLon ? " OR g.lon <= " : " AND g.lon <= ")
            plan.filter.bind(.real(neLon))
            if swLon > neLon { plan.filter.sql(")") }
        }
        if let condition = query.condition {
            var compiled = SQLFragment(recording: recording)
            try compiler.condition(condition, entity: request.entity, alias: "o", into: &compiled)
            plan.filter.sql(" AND ")
            plan.filter.append(compiled)
            if request.geo == nil, try selectsOwnEntity(condition) {
                var countFilter = SQLFragment(recording: recording)
                countFilter.sql(" WHERE ")
                countFilter.append(compiled)
                plan.countFilter = countFilter
            }
        }
        return plan
    }

    /// Whether every object `condition` holds for is of the queried space and entity, and a declared index
    /// finds them: true when it requires a value of one of the entity's indexed fields (a comparison with
    /// `=`, `<`, `<=`, `>` or `>=` on a scalar field, false for a missing value). Field ids are per environment and entity (`bb_fields`), and an
    /// object's `data` holds only its own entity's fields, so such a value exists only in objects of this
    /// space and entity. A conjunction needs one such side, a disjunction both.
    func selectsOwnEntity(_ condition: BQLCondition) throws -> Bool {
        switch condition {
        case .constraint(let c):
            guard BQLCompiler.comparison(c.op) != nil,
                  case .field(let info, .scalar) = try compiler.resolve(c.lhs, entity: request.entity, offset: c.offset) else {
                return false
            }
            // Only a declared index finds those objects without the space and entity terms; for any other
            // field those terms are what narrows the scan to the entity's objects.
            return info.indexed
        case .and(let a, let b):
            return try selectsOwnEntity(a) || selectsOwnEntity(b)
        case .or(let a, let b):
            return try selectsOwnEntity(a) && selectsOwnEntity(b)
        }
    }

    /// The location field of a near/bounding query: nil when never written (nothing matches); not a
    /// location field → `InvalidQuery` (§5.2.2).
    private func locationField(_ name: String) throws -> FieldInfo? {
        let declared = request.schema?.field(name, of: request.entity)
        if request.schema?.strict == true, declared == nil {
            throw BQLError(.type, "Unknown field '\(name)'")
        }
        if let declared, declared.type != .location { throw BQLError(.type, "'\(name)' is not a location field") }
        guard let info = catalogue.field(name, of: request.entity) else { return nil }
        guard info.type == .location || (declared != nil && info.type == nil) else {
            throw BQLError(.type, "'\(name)' is not a location field")
        }
        return info
    }

    /// Relevance of the first `like` in textual order (§6.2): bm25 over the body column only.
    private func relevanceJoin() throws -> SQLFragment? {
        guard let condition = query.condition,
              let like = condition.constraints.first(where: { $0.op == .like }),
              case .field(let info, .scalar(let type)) = try compiler.resolve(like.lhs, entity: request.entity, offset: like.offset),
              type.isText else { return nil }
        let words = BQLTypeCheck.words(request.query.text(of: like.rhs))
        guard !words.isEmpty else { return nil }
        var join = SQLFragment(" LEFT JOIN (SELECT t.object AS object, bm25(bb_fts, 0.0, 1.0) AS rank FROM bb_fts JOIN bb_text t ON t.rowid = bb_fts.rowid WHERE bb_fts MATCH ")
        join.bind(.text(FullTextSQL.match(fieldID: info.id, words: words)))
        join.sql(") rel ON rel.object = o.seq")
        return join
    }

    private func window(_ sql: inout SQLFragment) {
        if let limit = request.limit {
            sql.sql(" LIMIT ")
            sql.bind(.integer(Int64(max(0, limit))))
            sql.sql(" OFFSET ")
            sql.bind(.integer(Int64(max(0, request.offset))))
        } else if request.offset > 0 {
            sql.sql(" LIMIT -1 OFFSET ")
            sql.bind(.integer(Int64(request.offset)))
        }
    }

    // MARK: - Running

    /// The statement of the page: the main objects (and distances) in order within the window.
    func pageSQL(_ plan: Plan) -> SQLFragment {
        var sql = SQLFragment(recording: plan.from.recording)
        sql.sql("SELECT " + ObjectRows.columns)
        if let distance = plan.distance {
            sql.sql(", ")
            sql.append(distance)
            sql.sql(" AS dist")
        }
        for join in plan.toOne {
            sql.sql(", ")
            sql.sql(join.keyOnly ? ObjectRows.joinKeyColumn(position: join.position)
                                 : ObjectRows.joinColumns(position: join.position))
        }
        sql.sql(" ")
        sql.append(plan.from)
        for join in plan.toOne { sql.append(join.from) }
        if let relevance = plan.relevance { sql.append(relevance) }
        sql.append(plan.filter)
        sql.sql(plan.order)
        window(&sql)
        return sql
    }

    /// The shape of this query when its statement texts may be cached: not for geographic queries (their
    /// texts carry a distance and a box) nor for `like` (whether there are words to rank by picks the text).
    var shape: QueryShape? {
        guard let plans, plans.cache.capacity > 0, request.geo == nil else { return nil }
        if let condition = query.condition, condition.constraints.contains(where: { $0.op == .like }) { return nil }
        return QueryShape(space: request.space.value, entity: request.entity, query: query,
                          hasLimit: request.limit != nil, hasOffset: request.offset > 0,
                          catalogueGeneration: plans.catalogueGeneration)
    }

    /// The plan with the statement texts of the page and the count: taken from the cache when a query of
    /// the same shape compiled them (then only the values are collected), else compiled and kept.
    func compiledPlan() throws -> (plan: Plan, page: SQLFragment, countText: String?) {
        let shape = self.shape
        if let shape, let plans, let compiled = plans.cache.get(shape), compiled.schema == request.schema {
            let plan = try plan(recording: false)
            if !plan.textDependsOnValues {
                var page = pageSQL(plan)
                page.text = compiled.page
                return (plan, page, compiled.count)
            }
        }
        let plan = try plan()
        let page = pageSQL(plan)
        guard let shape, let plans, !plan.empty, !plan.textDependsOnValues else { return (plan, page, nil) }
        let count = countSQL(plan)
        plans.cache.put(shape, CompiledQuery(schema: request.schema, page: page.text, count: count.text))
        return (plan, page, count.text)
    }

    /// The page, its count and its joins.
    func run() throws -> ObjectPage {
        let (plan, sql, countText) = try compiledPlan()
        var page = ObjectPage()
        guard !plan.empty else {
            // Still validate the joins (a bad join is an error even when nothing matches).
            try validateJoins()
            if request.geo?.isNear == true { page.distances = [] }
            return page
        }
        let joinColumns = plan.distance != nil ? 9 : 8
        // Without to-many joins or fetches the page is written while its rows are read, from the bytes
        // SQLite holds (no records, no copies); the general path below handles the rest.
        if plan.toOne.count == query.joins.count, query.joins.allSatisfy({ $0.fetch.isEmpty }),
           var streamed = try streamPage(sql, plan, joinColumns: joinColumns) {
            streamed.count = try count(plan, text: countText, rows: streamed.ids.count)
            return streamed
        }
        var builder = PageBuilder()
        var mains: [ObjectRecord] = []
        var distances: [Int] = []
        // Targets the page statement read with their rows; key-only joins' targets are read by `JoinRunner`.
        var preloaded: [Int: [(owner: Int64, record: ObjectRecord)]] = [:]
        for join in plan.toOne where !join.keyOnly { preloaded[join.position] = [] }
        let offsets = Self.joinOffsets(plan.toOne, first: joinColumns)
        let hasDistance = plan.distance != nil
        try db.forEachRow(sql.text, sql.args) { row in
            let record = ObjectRows.record(row)
            mains.append(record)
            if hasDistance {
                let metres = sqlDouble(row, 8)
                distances.append(metres.isFinite ? Int(metres.rounded()) : 0)
            }
            for (i, join) in plan.toOne.enumerated() where !join.keyOnly && !row.isNull(offsets[i]) {
                preloaded[join.position, default: []].append((record.seq, ObjectRows.record(row, offset: offsets[i])))
            }
            return true
        }
        for record in mains { builder.add(record) }
        page.ids = mains.map(\.id)
        if hasDistance { page.distances = distances }
        page.count = try count(plan, text: countText, rows: mains.count)
        var joiner = JoinRunner(db: db, catalogue: catalogue, compiler: compiler, schema: request.schema,
                                maxWindow: request.maxJoinWindow)
        try joiner.run(query.joins, entity: request.entity, on: mains, into: &builder, preloaded: preloaded)
        page.objects = builder.objects
        return page
    }

    /// The count statement: over the same FROM and WHERE as the page (without the ranking and joins, which
    /// change no row count).
    func countSQL(_ plan: Plan) -> SQLFragment {
        var count = SQLFragment(recording: plan.from.recording)
        count.sql("SELECT count(*) ")
        count.append(plan.from)
        count.append(plan.countFilter ?? plan.filter)
        return count
    }

    /// The number of matches: the page's own rows when it is the whole answer (first page, not full), else
    /// the count statement's, whose text is `text` when known (kept by shape): then an answer of this
    /// connection still exact in this snapshot is taken from `counts`, and a new one kept there.
    func count(_ plan: Plan, text: String?, rows: Int) throws -> Int {
        if let limit = request.limit, request.offset == 0, rows < limit { return rows }
        var count = countSQL(plan)
        guard let text else { return try run(count) }
        count.text = text
        // Only read-only connections: a connection's own commits do not change its data_version.
        guard let counts, counts.capacity > 0, db.isReadOnly else { return try run(count) }
        var version: Int64?
        // Read inside the page's transaction, after its first statement: the version of this snapshot.
        try db.forEachRow(ObjectRows.dataVersionStatement) { row in
            version = row.int64(0)
            return false
        }
        guard let version else { return try run(count) }
        let key = CountCache.Key(text: text, args: count.args)
        if let total = counts.count(key, connection: db, version: version) { return total }
        let total = try run(count)
        counts.keep(key, connection: db, version: version, count: total)
        return total
    }

    private func run(_ count: SQLFragment) throws -> Int {
        var total: Int64 = 0
        try db.forEachRow(count.text, count.args) { row in
            total = row.int64(0) ?? 0
            return false
        }
        return Int(total)
    }

    /// The page written as response members while its rows are read: each main object with its joined
    /// to-one fields as bare ids, then each target not written yet, straight from the bytes SQLite holds into
    /// one buffer (`ObjectRowWriter`): the targets of joins with `having` with their rows, the others (key-only
    /// joins) after the page, each once (`readTargets`). Nil (the caller takes the general path) when a main
    /// object was already written as another row's target, since it must carry its joins.
    private func streamPage(_ sql: SQLFragment, _ plan: Plan, joinColumns: Int) throws -> ObjectPage? {
        // The joined fields of a row are a bit mask (BQL allows far fewer joins than 64).
        guard plan.toOne.count <= 64 else { return nil }
        let expected = min(request.limit ?? 32, 256)
        // About 600 bytes per object with its target in the benchmark's data: one growth at most there.
        let out = ByteWriter(capacity: 600 * max(expected, 1))
        var ids: [String] = []
        ids.reserveCapacity(expected)
        let renderedIDs = ByteWriter(capacity: 16 * max(expected, 1))
        var distances: [Int] = []
        var written = WrittenKeys()
        // Targets of key-only joins in the order first reached, each once.
        var pending: [Int64] = []
        var seenTargets = WrittenKeys()
        var conflict = false
        let hasDistance = plan.distance != nil
        let joinedNames = plan.toOne.map { Array(query.joins[$0.position].field.utf8) }
        let offsets = Self.joinOffsets(plan.toOne, first: joinColumns)
        let keyOnly = plan.toOne.map(\.keyOnly)
        // Every main row is of the queried entity (the page's WHERE says so), so its bytes are the request's.
        var entity = request.entity
        try entity.withUTF8 { entityBytes in
            try db.forEachRow(sql.text, sql.args) { row in
                guard let seq = row.int64(0), let id = row.text(1) else { return true }
                guard written.insert(seq).inserted else {
                    conflict = true
                    return false
                }
                var mask: UInt64 = 0
                for i in joinedNames.indices where !row.isNull(offsets[i]) { mask |= 1 << UInt64(i) }
                if out.count > 0 { out.append(UInt8(ascii: ",")) }
                ObjectRowWriter.appendMember(id: id, entity: entityBytes, createdAt: row.integer(3),
                                             updatedAt: row.integer(4), vals: row.text(5), refs: row.text(6),
                                             login: row.text(7), joinedNames: joinedNames, joinedMask: mask, to: out)
                ids.append(String(decoding: id, as: UTF8.self))
                if renderedIDs.count > 0 { renderedIDs.append(UInt8(ascii: ",")) }
                renderedIDs.appendQuoted(id)
                if hasDistance {
                    let metres = sqlDouble(row, 8)
                    distances.append(metres.isFinite ? Int(metres.rounded()) : 0)
                }
                guard mask != 0 else { return true }
                for i in joinedNames.indices where mask & (1 << UInt64(i)) != 0 {
                    let base = offsets[i]
                    guard let target = row.int64(base) else { continue }
                    if keyOnly[i] {
                        if seenTargets.insert(target).inserted { pending.append(target) }
                        continue
                    }
                    guard written.insert(target).inserted,
                          let targetID = row.text(base + 1), let targetEntity = row.text(base + 2) else { continue }
                    out.append(UInt8(ascii: ","))
                    ObjectRowWriter.appendMember(id: targetID, entity: targetEntity, createdAt: row.integer(base + 3),
                                                 updatedAt: row.integer(base + 4), vals: row.text(base + 5),
                                                 refs: row.text(base + 6), login: row.text(base + 7),
                                                 joinedNames: [], joinedMask: 0, to: out)
                }
                return true
            }
        }
        if conflict { return nil }
        // A target that is also a main object (or another join's target) of the page was written already.
        let unwritten = pending.filter { written.insert($0).inserted }
        if !unwritten.isEmpty { try readTargets(unwritten, into: out) }
        return ObjectPage(ids: ids, distances: hasDistance ? distances : nil, renderedObjects: out.bytes,
                          renderedIDs: renderedIDs.bytes)
    }

    /// Appends the objects `seqs` (internal keys, each once) as response members, in that order, read by one
    /// statement over the keys bound as a JSON array (SQLite walks the array and seeks each key; one point
    /// statement per key cost about 1,700 instructions more per target). A reference's target exists as long
    /// as the reference does (deleting an object deletes the references to it in the same transaction), and
    /// this runs in the page's snapshot.
    private func readTargets(_ seqs: [Int64], into out: ByteWriter) throws {
        let list = ByteWriter(capacity: 2 + 8 * seqs.count)
        list.append(UInt8(ascii: "["))
        for (i, seq) in seqs.enumerated() {
            if i > 0 { list.append(UInt8(ascii: ",")) }
            list.appendInt(seq)
        }
        list.append(UInt8(ascii: "]"))
        try db.forEachRow(ObjectRows.targetsStatement, [.text(String(decoding: list.bytes, as: UTF8.self))]) { row in
            guard let id = row.text(1), let entity = row.text(2) else { return true }
            out.append(UInt8(ascii: ","))
            ObjectRowWriter.appendMember(id: id, entity: entity, createdAt: row.integer(3), updatedAt: row.integer(4),
                                         vals: row.text(5), refs: row.text(6), login: row.text(7),
                                         joinedNames: [], joinedMask: 0, to: out)
            return true
        }
    }

    /// The first column of each to-one join in the page's rows, the first join's at `first`.
    static func joinOffsets(_ joins: [ToOneJoin], first: Int) -> [Int] {
        var offsets: [Int] = []
        offsets.reserveCapacity(joins.count)
        var next = first
        for join in joins {
            offsets.append(next)
            next += join.width
        }
        return offsets
    }

    /// The internal keys of the matching objects in query order within the window (remove-by-query).
    func matchingSeqs() throws -> [Int64] {
        let plan = try plan()
        guard !plan.empty else { return [] }
        var sql = SQLFragment("SELECT o.seq")
        if let distance = plan.distance {
            sql.sql(", ")
            sql.append(distance)
            sql.sql(" AS dist")
        }
        sql.sql(" ")
        sql.append(plan.from)
        if let relevance = plan.relevance { sql.append(relevance) }
        sql.append(plan.filter)
        sql.sql(plan.order)
        window(&sql)
        var seqs: [Int64] = []
        try db.forEachRow(sql.text, sql.args) { row in
            if let seq = row.int64(0) { seqs.append(seq) }
            return true
        }
        return seqs
    }

    private func validateJoins() throws {
        var joiner = JoinRunner(db: db, catalogue: catalogue, compiler: compiler, schema: request.schema,
                                maxWindow: request.maxJoinWindow)
        var builder = PageBuilder()
        try joiner.run(query.joins, entity: request.entity, on: [], into: &builder)
    }

    private func sqlDouble(_ row: ColumnReader, _ i: Int) -> Double {
        guard let text = row.string(i) else { return 0 }
        return Double(text) ?? 0
    }
}

/// The internal keys of the objects a streamed page wrote: a list searched in place while short (a page of
/// 20 with its targets), a set beyond that. Hashing every key into a `Set` cost about 900 instructions per
/// object written.
struct WrittenKeys {
    private var list: [Int64] = []
    private var set: Set<Int64>?
    private static let listLimit = 64

    /// Adds `key`; false when it was there already.
    mutating func insert(_ key: Int64) -> (inserted: Bool, memberAfterInsert: Int64) {
        if var current = set {
            set = nil   // `current` is then the only reference: inserted in place
            let result = current.insert(key)
            set = current
            return result
        }
        if list.contains(key) { return (false, key) }
        list.append(key)
        if list.count > Self.listLimit { set = Set(list) }
        return (true, key)
    }
}

extension GeoFilter {
    var isNear: Bool { if case .near = self { return true } else { return false } }
}
