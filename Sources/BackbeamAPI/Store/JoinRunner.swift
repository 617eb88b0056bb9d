import Core
import Storage

/// Applies the joins of a query (or of a read's `joins`) to the main objects (§6.3):
/// - `join author` (to-one): the target goes into `objects` and the field renders as its id;
/// - `join comments` (to-many): `{"result":[],"count":N}`;
/// - `join first|last N comments`: up to N members by link time, oldest or newest first;
/// - `having` filters joined objects (count stays the relationship's total), `fetch a, b` resolves to-one
///   fields of the joined objects.
struct JoinRunner {
    let db: Database
    let catalogue: FieldCatalogue
    let compiler: BQLCompiler
    let schema: ProjectSchema?
    let maxWindow: Int

    /// Applies `joins` to `mains`. `preloaded` holds, by position in `joins`, the targets of to-one joins
    /// that the page statement already read (owner key, target).
    mutating func run(_ joins: [BQLJoin], entity: String, on mains: [ObjectRecord], into builder: inout PageBuilder,
                      preloaded: [Int: [(owner: Int64, record: ObjectRecord)]] = [:]) throws {
        for (position, join) in joins.enumerated() {
            switch try compiler.resolve(.field(join.field), entity: entity, offset: join.offset) {
            case .unknown:
                // Never written: an empty relationship (§6.3).
                for main in mains { builder.joinToMany(seq: main.seq, JoinedToMany(field: join.field, result: [], count: 0)) }
            case .field(let info, .toOne):
                if let targets = preloaded[position] {
                    for target in targets {
                        builder.add(target.record)
                        builder.joinToOne(seq: target.owner, field: join.field)
                    }
                    try fetch(join, on: targets.map(\.record), into: &builder)
                } else {
                    try joinToOne(join, info: info, on: mains, into: &builder)
                }
            case .field(let info, .toMany):
                try joinToMany(join, info: info, on: mains, into: &builder)
            case .field(_, .unknown):
                for main in mains { builder.joinToMany(seq: main.seq, JoinedToMany(field: join.field, result: [], count: 0)) }
            default:
                throw BQLError(.type, "'\(join.field)' is not a relationship", at: join.offset)
            }
        }
    }

    private func joinToOne(_ join: BQLJoin, info: FieldInfo, on mains: [ObjectRecord], into builder: inout PageBuilder) throws {
        guard !mains.isEmpty else { return }
        var targets: [(owner: Int64, record: ObjectRecord)] = []
        var sql = SQLFragment("SELECT r.owner, " + ObjectRows.columns
            + " FROM bb_refs r JOIN bb_objects o ON o.seq = r.target WHERE r.field = ")
        sql.bind(.integer(info.id))
        sql.sql(" AND r.owner IN (SELECT value FROM json_each(")
        sql.bind(.text(Self.seqList(mains.map(\.seq))))
        sql.sql("))")
        if let having = join.having {
            sql.sql(" AND ")
            try compiler.condition(having, entity: info.target ?? "", alias: "o", into: &sql)
        }
        try db.forEachRow(sql.text, sql.args) { row in
            if let owner = row.int64(0) { targets.append((owner, ObjectRows.record(row, offset: 1))) }
            return true
        }
        for target in targets {
            builder.add(target.record)
            builder.joinToOne(seq: target.owner, field: join.field)
        }
        try fetch(join, on: targets.map(\.record), into: &builder)
    }

    private func joinToMany(_ join: BQLJoin, info: FieldInfo, on mains: [ObjectRecord], into builder: inout PageBuilder) throws {
        var fetched: [ObjectRecord] = []
        for main in mains {
            let count = try db.queryOne("SELECT count(*) FROM bb_links WHERE owner = ? AND field = ?",
                                        [.integer(main.seq), .integer(info.id)])?[0].int64 ?? 0
            var result: [String] = []
            if let window = join.window {
                let (n, newestFirst): (Int, Bool)
                switch window {
                case .first(let k): (n, newestFirst) = (k, false)
                case .last(let k): (n, newestFirst) = (k, true)
                }
                var sql = SQLFragment("SELECT " + ObjectRows.columns
                    + " FROM bb_links l JOIN bb_objects o ON o.seq = l.member WHERE l.owner = ")
                sql.bind(.integer(main.seq))
                sql.sql(" AND l.field = ")
                sql.bind(.integer(info.id))
                if let having = join.having {
                    sql.sql(" AND ")
                    try compiler.condition(having, entity: info.target ?? "", alias: "o", into: &sql)
                }
                // Link time orders the members (§6.3); links without one (imports) use the member's creation.
                let direction = newestFirst ? " DESC" : ""
                sql.sql(" ORDER BY coalesce(l.linked_at, o.created_at)\(direction), l.id\(direction) LIMIT ")
                sql.bind(.integer(Int64(max(0, min(n, maxWindow)))))
                var members: [ObjectRecord] = []
                try db.forEachRow(sql.text, sql.args) { row in
                    members.append(ObjectRows.record(row))
                    return true
                }
                for member in members { builder.add(member) }
                result = members.map(\.id)
                fetched += members
            } else if let having = join.having {
                // `having` without a window still has to be a valid condition.
                var probe = SQLFragment()
                try compiler.condition(having, entity: info.target ?? "", alias: "o", into: &probe)
            }
            builder.joinToMany(seq: main.seq, JoinedToMany(field: join.field, result: result, count: Int(count)))
        }
        try fetch(join, on: fetched, into: &builder)
    }

    /// `fetch a, b`: the to-one fields of the joined objects, resolved into `objects`.
    private func fetch(_ join: BQLJoin, on joined: [ObjectRecord], into builder: inout PageBuilder) throws {
        guard !join.fetch.isEmpty else { return }
        let byEntity = Dictionary(grouping: joined, by: \.entity)
        for (entity, records) in byEntity.sorted(by: { $0.key < $1.key }) {
            for name in join.fetch {
                guard case .field(let info, .toOne) = try compiler.resolve(.field(name), entity: entity, offset: join.offset) else {
                    continue
                }
                var found: [(owner: Int64, record: ObjectRecord)] = []
                try db.forEachRow("""
                    SELECT r.owner, o.seq, o.id, o.entity, o.created_at, o.updated_at, o.vals, o.refs, o.login
                    FROM bb_refs r JOIN bb_objects o ON o.seq = r.target
                    WHERE r.field = ? AND r.owner IN (SELECT value FROM json_each(?))
                    """, [.integer(info.id), .text(Self.seqList(records.map(\.seq)))]) { row in
                    if let owner = row.int64(0) { found.append((owner, ObjectRows.record(row, offset: 1))) }
                    return true
                }
                for item in found {
                    builder.add(item.record)
                    builder.joinToOne(seq: item.owner, field: name)
                }
            }
        }
    }

    static func seqList(_ seqs: [Int64]) -> String {
        "[" + seqs.map(String.init).joined(separator: ",") + "]"
    }
}
