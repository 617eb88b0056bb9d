import Core

/// A precondition failure while applying a delta: `{"error": "change <i>: <reason>"}` with status 400.
public struct ApplyError: Error, Sendable, Equatable {
    /// Full message.
    public let message: String
    init(_ index: Int, _ reason: String) { message = "change \(index): \(reason)" }
    init(message: String) { self.message = message }
}

/// Applies validated changes, in order, to a working copy (§5.6, §5.7). Changes are applied exactly as sent.
public enum DeltaApplier {
    /// Applies every change; throws at the first precondition failure (the caller then stores nothing).
    public static func apply(_ changes: [Change], to copy: inout WorkingCopy,
                             check: (Int, Change) throws -> Void = { _, _ in }) throws {
        for (index, change) in changes.enumerated() {
            try check(index, change)
            let key = change.key
            let position = try copy.position(of: key)
            let current = copy.fields(at: position)
            switch change {
            case .insert(_, let fields):
                guard current == nil else { throw ApplyError(index, "record \(describe(key)) already exists") }
                copy.set(at: position, fields, change: index)
            case .delete:
                guard current != nil else { throw ApplyError(index, "record \(describe(key)) does not exist") }
                copy.set(at: position, nil, change: index)
            case .update(_, let ops):
                guard var fields = current else { throw ApplyError(index, "record \(describe(key)) does not exist") }
                for (field, op) in ops {
                    do { try applyOp(op, field: field, to: &fields) } catch {
                        throw ApplyError(index, "field \(Quote.echo(field)): \(error.reason)")
                    }
                }
                copy.set(at: position, fields, change: index)
            }
        }
    }

    /// Applies one field operation to a record's fields.
    static func applyOp(_ op: FieldOp, field: String, to fields: inout JSONObject) throws(Values.Invalid) {
        switch op {
        case .put(let value):
            fields[field] = value
        case .delete:
            fields[field] = nil   // a no-op when absent (JS sends it for absent fields)
        case .listCreate:
            guard fields[field] == nil else { throw Values.Invalid(reason: "LC on a field that is present") }
            fields[field] = .array([])
        case .listPut(let i, let atom):
            var list = try existingList(fields[field])
            guard i < list.count else { throw Values.Invalid(reason: "LP index \(i) out of range (length \(list.count))") }
            list[i] = atom
            fields[field] = .array(list)
        case .listInsert(let i, let atom):
            guard let current = fields[field] else {
                // JS inserts at 0 into an absent field without LC first; that creates the list.
                guard i == 0 else { throw Values.Invalid(reason: "LI index \(i) on an absent field") }
                fields[field] = .array([atom])
                return
            }
            var list = try existingList(current)
            guard i <= list.count else { throw Values.Invalid(reason: "LI index \(i) out of range (length \(list.count))") }
            list.insert(atom, at: i)
            fields[field] = .array(list)
        case .listDelete(let i):
            var list = try existingList(fields[field])
            guard i < list.count else { throw Values.Invalid(reason: "LD index \(i) out of range (length \(list.count))") }
            list.remove(at: i)
            fields[field] = .array(list)
        case .listMove(let from, let to):
            var list = try existingList(fields[field])
            guard from < list.count, to < list.count else {
                throw Values.Invalid(reason: "LM indices \(from), \(to) out of range (length \(list.count))")
            }
            // `to` is the item's final position: remove first, then insert.
            let item = list.remove(at: from)
            list.insert(item, at: to)
            fields[field] = .array(list)
        }
    }

    private static func existingList(_ value: JSON?) throws(Values.Invalid) -> [JSON] {
        guard let value else { throw Values.Invalid(reason: "list operation on an absent field") }
        guard case .array(let list) = value else { throw Values.Invalid(reason: "list operation on a non-list field") }
        return list
    }

    /// `(tid, rid)` for messages.
    static func describe(_ key: RecordKey) -> String {
        "(\(String(key.tid.prefix(100))), \(String(key.rid.prefix(100))))"
    }
}
