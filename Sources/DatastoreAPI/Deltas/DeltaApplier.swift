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
    ///
    /// Records being updated stay open as `WorkingFields` until the last change, so every change and field
    /// operation costs time in proportion to what it names, not to the size of the record or list it
    /// touches (a delta of many small changes to one wide record was quadratic).
    public static func apply(_ changes: [Change], to copy: inout WorkingCopy,
                             check: (Int, Change) throws -> Void = { _, _ in }) throws {
        var open: [Int: WorkingFields] = [:]
        for (index, change) in changes.enumerated() {
            try check(index, change)
            let key = change.key
            let position = try copy.position(of: key)
            // An open record's fields in the copy are stale but present, so this holds for it too.
            let exists = copy.exists(at: position)
            switch change {
            case .insert(_, let fields):
                guard !exists else { throw ApplyError(index, "record \(describe(key)) already exists") }
                copy.set(at: position, fields, change: index)
            case .delete:
                guard exists else { throw ApplyError(index, "record \(describe(key)) does not exist") }
                open[position] = nil
                copy.set(at: position, nil, change: index)
            case .update(_, let ops):
                guard exists else { throw ApplyError(index, "record \(describe(key)) does not exist") }
                var record = open.removeValue(forKey: position) ?? WorkingFields(copy.fields(at: position) ?? JSONObject())
                for (field, op) in ops {
                    do throws(Values.Invalid) { try applyOp(op, field: field, to: &record) } catch {
                        throw ApplyError(index, "field \(Quote.echo(field)): \(error.reason)")
                    }
                }
                open[position] = record
                copy.noteChange(at: position, change: index)
            }
        }
        for (position, record) in open { copy.replaceFields(at: position, with: record.object) }
    }

    /// Applies one field operation to a record's fields.
    static func applyOp(_ op: FieldOp, field: String, to fields: inout WorkingFields) throws(Values.Invalid) {
        switch op {
        case .put(let value):
            fields[field] = value
        case .delete:
            fields[field] = nil   // a no-op when absent (JS sends it for absent fields)
        case .listCreate:
            guard fields[field] == nil else { throw Values.Invalid(reason: "LC on a field that is present") }
            fields[field] = .array([])
        case .listPut(let i, let atom):
            try modifyList(field, in: &fields) { list throws(Values.Invalid) in
                guard i < list.count else { throw Values.Invalid(reason: "LP index \(i) out of range (length \(list.count))") }
                list[i] = atom
            }
        case .listInsert(let i, let atom):
            guard fields[field] != nil else {
                // JS inserts at 0 into an absent field without LC first; that creates the list.
                guard i == 0 else { throw Values.Invalid(reason: "LI index \(i) on an absent field") }
                fields[field] = .array([atom])
                return
            }
            try modifyList(field, in: &fields) { list throws(Values.Invalid) in
                guard i <= list.count else { throw Values.Invalid(reason: "LI index \(i) out of range (length \(list.count))") }
                list.insert(atom, at: i)
            }
        case .listDelete(let i):
            try modifyList(field, in: &fields) { list throws(Values.Invalid) in
                guard i < list.count else { throw Values.Invalid(reason: "LD index \(i) out of range (length \(list.count))") }
                list.remove(at: i)
            }
        case .listMove(let from, let to):
            try modifyList(field, in: &fields) { list throws(Values.Invalid) in
                guard from < list.count, to < list.count else {
                    throw Values.Invalid(reason: "LM indices \(from), \(to) out of range (length \(list.count))")
                }
                // `to` is the item's final position: remove first, then insert.
                let item = list.remove(at: from)
                list.insert(item, at: to)
            }
        }
    }

    /// Runs `body` on the list in `field`, changed in place (not copied for the operation).
    private static func modifyList(_ field: String, in fields: inout WorkingFields,
                                   _ body: (inout [JSON]) throws(Values.Invalid) -> Void) throws(Values.Invalid) {
        try fields.modify(field) { value throws(Values.Invalid) in
            var list = try existingList(value)
            value = nil
            defer { value = .array(list) }
            try body(&list)
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
