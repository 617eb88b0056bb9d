import Core

/// The structural limits of writes (spec §3.9): `maxFieldsPerWrite`, `maxArrayOperationItems`,
/// `maxFieldsPerClass` and `maxSchemaChangesPerRequest`. Every write runs on the single writer, where a
/// request's work delays every other write of every API, so what one request may ask of it is bounded.
/// Parse Server has no such limits; its codes are used the way it uses them: 107 for a body that asks too
/// much at once (like a batch over `batchMaxRequests`), 140 (`EXCEEDED_QUOTA`) for a class that is full.
/// Like Parse's other structural limits they apply to the master key too.
enum WriteLimits {
    /// Refuses a body naming more fields than `maxFieldsPerWrite` (each dotted path counts), or an array or
    /// relation operation carrying more objects than `maxArrayOperationItems`. Runs before the write touches
    /// anything.
    static func check(_ w: WriteRequest, _ config: ParseConfig) throws {
        guard w.operations.count <= config.maxFieldsPerWrite else {
            throw ParseError(107, "Too many fields in one write: the maximum is \(config.maxFieldsPerWrite).")
        }
        for (_, op) in w.operations where op.itemCount > config.maxArrayOperationItems {
            throw ParseError(107, "Too many objects in one \(op.name) operation: the maximum is \(config.maxArrayOperationItems).")
        }
    }

    /// Refuses a schema grown past `maxFieldsPerClass` by `added` new fields. A class already over the limit
    /// (set lower after it grew) keeps accepting writes to the fields it has.
    static func checkClass(_ schema: ClassSchema, added: Int, _ config: ParseConfig) throws {
        if added > 0, schema.fields.count > config.maxFieldsPerClass {
            throw ParseError(140, "Cannot add more than \(config.maxFieldsPerClass) fields to class \(schema.className).")
        }
    }

    /// Counts `changes` schema changes (new fields, and a new class) against the request's allowance. The
    /// count lives on the write job's transaction, so all the items of a transactional batch share it.
    static func countSchemaChanges(_ changes: Int, _ tx: any ParseTransaction, _ config: ParseConfig) throws {
        guard changes > 0 else { return }
        tx.schemaChanges += changes
        if tx.schemaChanges > config.maxSchemaChangesPerRequest {
            throw ParseError(107, "Too many schema changes in one request: the maximum is \(config.maxSchemaChangesPerRequest).")
        }
    }
}

extension FieldOperation {
    /// The objects an array or relation operation carries (0 for the others).
    var itemCount: Int {
        switch self {
        case .add(let o), .addUnique(let o), .remove(let o): return o.count
        case .addRelation(_, let ids), .removeRelation(_, let ids): return ids.count
        case .relationBatch(let ops): return ops.reduce(0) { $0 + $1.itemCount }
        default: return 0
        }
    }

    /// The operator's name as clients send it.
    var name: String {
        switch self {
        case .set: return "Set"
        case .delete: return "Delete"
        case .increment: return "Increment"
        case .add: return "Add"
        case .addUnique: return "AddUnique"
        case .remove: return "Remove"
        case .addRelation: return "AddRelation"
        case .removeRelation: return "RemoveRelation"
        case .relationBatch: return "Batch"
        case .setOnInsert: return "SetOnInsert"
        }
    }
}
