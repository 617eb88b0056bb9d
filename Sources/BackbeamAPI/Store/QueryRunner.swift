import Core
import Storage

/// Runs one compiled query on one connection (a reader's snapshot, or the writer inside a remove job):
/// the page of main objects, the total count, then the joins (§5.2, §6).
struct QueryRunner {
    let db: Database
    let catalogue: FieldCatalogue
    let request: QueryRequest
    let compiler: BQLCompiler

    init(db: Database, catalogue: FieldCatalogue, request: QueryRequest) {
        self.db = db
        self.catalogue = catalogue
        self.request = request
        compiler = BQLCompiler(space: request.space, catalogue: catalogue, schema: request.schema,
                               bound: request.query, limits: BQLLimits())
    }

    var query: BQLQuery { request.query.query }

    /// The parts of the main statement shared by the page, the count and remove-by-query.
    struct Plan {
        var from = SQLFragment()
        var filter = SQLFragment()
        var order = ""
        var distance: SQLFragment?
        /// The relevance join of a `like` query (the page needs it for its order, the count does not).
        var relevance: SQLFragment?
        /// A never-written or address-only location field: nothing can match.
        var empty = false
    }

    func plan() throws -> Plan {
        var plan = Plan()
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
        orderTerms.append("o.created_at, o.id")
        plan.order = " ORDER BY " + orderTerms.joined(separator: ", ")

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
            plan.filter.sql(" AND ")
            try compiler.condition(condition, entity: request.entity, alias: "o", into: &plan.filter)
        }
        return plan
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
        var sql = SQLFragment("SELECT " + ObjectRows.columns)
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
        return sql
    }

    /// The page, its count and its joins.
    func run() throws -> ObjectPage {
        let plan = try plan()
        var page = ObjectPage()
        guard !plan.empty else {
            // Still validate the joins (a bad join is an error even when nothing matches).
            try validateJoins()
            if request.geo?.isNear == true { page.distances = [] }
            return page
        }
        let sql = pageSQL(plan)
        var builder = PageBuilder()
        var mains: [ObjectRecord] = []
        var distances: [Int] = []
        let hasDistance = plan.distance != nil
        try db.forEachRow(sql.text, sql.args) { row in
            let record = ObjectRows.record(row)
            mains.append(record)
            if hasDistance {
                let metres = sqlDouble(row, 8)
                distances.append(metres.isFinite ? Int(metres.rounded()) : 0)
            }
            return true
        }
        for record in mains { builder.add(record) }
        page.ids = mains.map(\.id)
        if hasDistance { page.distances = distances }
        if let limit = request.limit, request.offset == 0, mains.count < limit {
            page.count = mains.count
        } else {
            var count = SQLFragment("SELECT count(*) ")
            count.append(plan.from)
            count.append(plan.filter)
            page.count = Int(try db.queryOne(count.text, count.args)?[0].int64 ?? 0)
        }
        var joiner = JoinRunner(db: db, catalogue: catalogue, compiler: compiler, schema: request.schema,
                                maxWindow: request.maxJoinWindow)
        try joiner.run(query.joins, entity: request.entity, on: mains, into: &builder)
        page.objects = builder.objects
        return page
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

extension GeoFilter {
    var isNear: Bool { if case .near = self { return true } else { return false } }
}
