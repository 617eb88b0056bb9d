import Core

/// Whether a planned find is heavy: slow enough that it must take a place among the heavy reads
/// (`ReaderShare`) before it keeps a read connection, so that slow queries never hold every reader.
///
/// Decided from the plan alone, without asking the store, so it costs nothing measurable: a find is heavy
/// when the regex engine checks its candidates (residual filters), or when no condition can be answered
/// from an index and the store therefore visits every object of the class, to test a condition on it, to
/// sort the class by an unindexed key, or to count the class. Indexed conditions are those on the columns
/// (`objectId`, `createdAt`, `updatedAt`), on the first field of a declared index (spec §14.5) or of a
/// built-in one, on relation membership and full-text search. A wrong guess is harmless: a heavy query
/// taken for light runs outside the share (bounded still by its time budget), a light one taken for heavy
/// waits for a place.
enum QueryCost {
    static func isHeavy(_ planned: QueryRunner.FindPlan, schema: ClassSchema?, counts: Bool) -> Bool {
        if !planned.residual.isEmpty { return true }
        let indexes = Indexes(className: planned.query.className, schema: schema)
        var scans = false
        for condition in planned.query.conditions {
            switch narrowing(condition, indexes) {
            case .indexed: return false
            case .scan: scans = true
            case .neutral: break
            }
        }
        if scans || counts { return true }
        // Nothing narrows the class: only an order that no index gives makes the store read all of it.
        for key in planned.query.order {
            switch key {
            case .field(let ref, _, _): if !indexes.lead(ref) { return true }
            case .distance: return true
            case .textScore: break
            }
        }
        return false
    }

    /// What one condition of a conjunction does to the objects the store visits.
    private enum Narrowing {
        /// An index finds the objects that meet it.
        case indexed
        /// Every object of the class is visited to test it.
        case scan
        /// Neither (always true, or an access term checked on the objects the rest selects).
        case neutral
    }

    private static func narrowing(_ condition: QueryPredicate, _ indexes: Indexes) -> Narrowing {
        switch condition {
        case .allOf(let parts):
            var result = Narrowing.neutral
            for part in parts {
                switch narrowing(part, indexes) {
                case .indexed: return .indexed
                case .scan: result = .scan
                case .neutral: break
                }
            }
            return result
        case .constant(let holds): return holds ? .neutral : .indexed
        case .readable, .pointsToUser: return .neutral
        case .column, .columnIn, .relationHas, .relationHasAny, .memberOf, .textSearch: return .indexed
        case .storedText(let path, _): return path.count <= 2 && path.first.map(indexes.lead) == true ? .indexed : .scan
        case .value(let ref, _, _), .valueIn(let ref, _), .pointerId(let ref, _, _):
            return indexes.lead(ref) ? .indexed : .scan
        case .matchesLiteral(let ref, let lit):
            return lit.anchoredStart && lit.anchoredEnd && !lit.caseInsensitive && indexes.lead(ref) ? .indexed : .scan
        default: return .scan
        }
    }

    /// The indexes of one class, asked without building anything: declared ones (spec §14.5) and the
    /// built-in ones of the system classes (`Migrations/0002_parse.sql`).
    private struct Indexes {
        let className: String
        let schema: ClassSchema?

        /// A column, or a one-segment reference to a top-level field that leads an index.
        func lead(_ ref: FieldRef) -> Bool {
            ref.isColumn || (ref.path.count == 1 && lead(ref.path[0]))
        }

        func lead(_ field: String) -> Bool {
            switch className {
            case "_Role": if field == "name" { return true }
            case "_Session": if field == "_token_hash" || field == "user" { return true }
            case "_Installation": if field == "installationId" || field == "deviceToken" { return true }
            default: break
            }
            guard let indexes = schema?.indexes, !indexes.isEmpty else { return false }
            for (_, spec) in indexes {
                if let (first, _) = spec.objectValue?.first(where: { _ in true }), first == field { return true }
            }
            return false
        }
    }
}
