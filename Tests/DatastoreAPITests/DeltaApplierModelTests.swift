import XCTest
import Core
@testable import DatastoreAPI

/// The applier keeps updated records open (`WorkingFields`) and changes lists in place, so that a delta costs
/// time in proportion to its own size. These tests check it against the straightforward model it replaced
/// (each change copies the record into a `JSONObject`), on random deltas and on large ones: same outcome,
/// same field order, same first error.
final class DeltaApplierModelTests: XCTestCase {
    /// The previous applier: one `JSONObject` per record, copied and written back by every change.
    static func model(_ changes: [Change], stored: [RecordKey: JSONObject]) -> Result<[RecordKey: JSONObject], ApplyError> {
        var records = stored
        for (index, change) in changes.enumerated() {
            let key = change.key
            switch change {
            case .insert(_, let fields):
                if records[key] != nil { return .failure(ApplyError(index, "exists")) }
                records[key] = fields
            case .delete:
                if records[key] == nil { return .failure(ApplyError(index, "missing")) }
                records[key] = nil
            case .update(_, let ops):
                guard var fields = records[key] else { return .failure(ApplyError(index, "missing")) }
                for (field, op) in ops {
                    guard modelOp(op, field, &fields) else { return .failure(ApplyError(index, "op")) }
                }
                records[key] = fields
            }
        }
        return .success(records)
    }

    private static func modelOp(_ op: FieldOp, _ field: String, _ fields: inout JSONObject) -> Bool {
        var list: [JSON] = []
        switch op {
        case .put(let v): fields[field] = v; return true
        case .delete: fields[field] = nil; return true
        case .listCreate:
            guard fields[field] == nil else { return false }
            fields[field] = .array([])
            return true
        case .listInsert(let i, let atom) where fields[field] == nil:
            guard i == 0 else { return false }
            fields[field] = .array([atom])
            return true
        default:
            guard case .array(let l)? = fields[field] else { return false }
            list = l
        }
        switch op {
        case .listPut(let i, let atom): guard i < list.count else { return false }; list[i] = atom
        case .listInsert(let i, let atom): guard i <= list.count else { return false }; list.insert(atom, at: i)
        case .listDelete(let i): guard i < list.count else { return false }; list.remove(at: i)
        case .listMove(let from, let to):
            guard from < list.count, to < list.count else { return false }
            list.insert(list.remove(at: from), at: to)
        default: return false
        }
        fields[field] = .array(list)
        return true
    }

    private func applied(_ changes: [Change], stored: [RecordKey: JSONObject]) -> Result<[RecordKey: JSONObject], ApplyError> {
        var copy = WorkingCopy { key in stored[key].map { ($0, Values.recordSize($0)) } }
        do {
            try DeltaApplier.apply(changes, to: &copy)
        } catch let error as ApplyError {
            return .failure(error)
        } catch {
            return .failure(ApplyError(message: "\(error)"))
        }
        var out = stored
        for (key, record) in copy.touched { out[key] = record.fields }
        return .success(out)
    }

    private func assertSame(_ a: Result<[RecordKey: JSONObject], ApplyError>, _ b: Result<[RecordKey: JSONObject], ApplyError>,
                            _ context: String, file: StaticString = #filePath, line: UInt = #line) {
        switch (a, b) {
        case (.success(let x), .success(let y)):
            XCTAssertEqual(Set(x.keys), Set(y.keys), context, file: file, line: line)
            for (key, fields) in x {
                // Order too: the snapshot returns fields in this order.
                XCTAssertEqual(fields.keys, y[key]?.keys, context, file: file, line: line)
                XCTAssertEqual(fields, y[key], context, file: file, line: line)
            }
        case (.failure(let x), .failure(let y)):
            // The model's reasons are short; the index of the failing change must agree.
            XCTAssertEqual(x.message.split(separator: ":").first, y.message.split(separator: ":").first, context,
                           file: file, line: line)
        default:
            XCTFail("\(context): \(a) vs \(b)", file: file, line: line)
        }
    }

    func testRandomDeltasGiveTheModelsOutcome() {
        var rng = SplitMix(seed: 19)
        let keys = [RecordKey(tid: "t", rid: "a"), RecordKey(tid: "t", rid: "b")]
        let names = ["f", "g", "h", "l"]
        for round in 0..<400 {
            var stored: [RecordKey: JSONObject] = [:]
            if rng.next() % 2 == 0 { stored[keys[0]] = ["f": 1, "l": [1, 2, 3]] }
            var changes: [Change] = []
            for _ in 0..<(1 + Int(rng.next() % 12)) {
                let key = keys[Int(rng.next() % 2)]
                switch rng.next() % 6 {
                case 0: changes.append(.insert(key, ["g": .string("new"), "l": [0]]))
                case 1: changes.append(.delete(key))
                default:
                    var ops: [(field: String, op: FieldOp)] = []
                    for name in names where rng.next() % 2 == 0 {
                        let i = Int(rng.next() % 4), j = Int(rng.next() % 4)
                        let atom = JSON.int(Int(rng.next() % 100))
                        let op: FieldOp = [.put(atom), .delete, .listCreate, .listPut(i, atom), .listInsert(i, atom),
                                           .listDelete(i), .listMove(i, j)][Int(rng.next() % 7)]
                        ops.append((name, op))
                    }
                    changes.append(.update(key, ops))
                }
            }
            assertSame(applied(changes, stored: stored), Self.model(changes, stored: stored), "round \(round): \(changes)")
        }
    }

    /// Thousands of changes to one record: fields added then deleted one change at a time, and a list built at
    /// its front (each quadratic before).
    func testLargeDeltasOnOneRecord() {
        let key = RecordKey(tid: "t", rid: "r")
        var changes: [Change] = [.insert(key, [:]), .update(key, (0..<5_000).map { ("f\($0)", FieldOp.put(.int($0))) })]
        changes += (0..<4_000).map { .update(key, [("f\($0 * 5 / 4)", .delete)]) }
        changes += [.update(key, [("l", .listCreate)])]
        changes += (0..<3_000).map { .update(key, [("l", .listInsert($0 % 2 == 0 ? 0 : $0 / 2, .int($0)))]) }
        changes += (0..<1_000).map { .update(key, [("l", .listMove($0, 2_999 - $0))]) }
        changes += [.update(key, [("f1", .put(true))])]
        assertSame(applied(changes, stored: [:]), Self.model(changes, stored: [:]), "large")
        if case .success(let records) = applied(changes, stored: [:]) {
            XCTAssertEqual(records[key]?.count, 5_000 - 4_000 + 1 + 1)
            XCTAssertEqual(records[key]?.keys.last, "f1")
        }
    }
}

/// A small deterministic generator (SplitMix64), so every run tests the same deltas.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
