import Core
import Storage

extension SQLiteBackbeamStore {
    public func query(_ request: QueryRequest) throws -> ObjectPage {
        let (generation, catalogue) = try generationalCatalogue(space: request.space)
        return try storage.read { db in
            try QueryRunner(db: db, catalogue: catalogue, request: request,
                            plans: (queryPlans, generation), counts: counts).run()
        }
    }

    public func read(space: SpaceID, entity: String, id: String, joins: BQLBoundQuery?, schema: ProjectSchema?,
                     maxJoinWindow: Int) throws -> ObjectPage? {
        guard let joins, !joins.query.joins.isEmpty else {
            // The common case, one statement (no transaction needed for a consistent answer), rendered
            // while the row is read.
            guard let rendered = try storage.readStatement({ db in
                try ObjectRows.render(db, space: space, id: id, entity: entity)
            }) else { return nil }
            return ObjectPage(ids: [id], count: 1, renderedObjects: rendered)
        }
        let catalogue = try catalogue(space: space)
        return try storage.read { db -> ObjectPage? in
            guard let record = try ObjectRows.load(db, space: space, id: id), record.entity == entity else { return nil }
            let compiler = BQLCompiler(space: space, catalogue: catalogue, schema: schema, bound: joins, limits: BQLLimits())
            var builder = PageBuilder()
            builder.add(record)
            var joiner = JoinRunner(db: db, catalogue: catalogue, compiler: compiler, schema: schema, maxWindow: maxJoinWindow)
            try joiner.run(joins.query.joins, entity: entity, on: [record], into: &builder)
            return ObjectPage(ids: [record.id], count: 1, objects: builder.objects)
        }
    }

    public func renderedObjectIfAtHand(space: SpaceID, entity: String, id: String) throws -> [UInt8]? {
        let rendered = try storage.tryReadStatement { db in
            try ObjectRows.render(db, space: space, id: id, entity: entity)
        }
        return rendered ?? nil
    }

    /// The stored response members of one object, for the read path that renders straight from them.
    public func object(space: SpaceID, id: String) throws -> ObjectRecord? {
        try storage.readStatement { db in try ObjectRows.load(db, space: space, id: id) }
    }
}
