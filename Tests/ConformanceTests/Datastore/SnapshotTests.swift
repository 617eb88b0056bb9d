import Foundation
import XCTest
import Core

/// DS-080 … DS-087: get_snapshot.
final class DatastoreSnapshotTests: DatastoreTestCase {
    /// The Python put body of §6.10.
    static let pythonChanges = """
        [["I", "tasks", "p0f5BxSxQrSNaFlrqm5FCg", {"b": true, "d": {"T": "1400000000123"}, "f": 1.5, \
        "big": {"I": "4611686018427387904"}, "nan": {"N": "nan"}, "n": {"I": "5"}, "lst": ["a", 2], \
        "inf": {"N": "-inf"}, "by": {"B": "AAH_"}, "name": "caf\\u00e9"}], ["I", ":info", "info", {}], \
        ["U", ":info", "info", {"title": ["P", "My title"]}], ["U", ":info", "info", {"mtime": ["P", {"T": "1795303518941"}]}]]
        """

    func test_DS_080_rev0_empty() throws {
        XCTAssertEqual(try ds.snapshot(try ds.create()).text, "{\"rev\":0,\"rows\":[]}")
    }

    func test_DS_081_values_verbatim() throws {
        let h = try ds.create()
        XCTAssertEqual(try ds.put(h, rev: 0, Self.pythonChanges, nonce: "HefDL2JUSBuc9j4beDseNg").text, "{\"rev\":1}")
        let rows = try ds.snapshot(h)["rows"]?.arrayValue ?? []
        let task = rows.first { $0["tid"]?.stringValue == "tasks" }?["data"]
        XCTAssertEqual(task?["f"]?.numberValue?.text, "1.5")
        XCTAssertEqual(task?["lst"]?.serialized(), "[\"a\",2]")
        XCTAssertEqual(task?["big"]?.serialized(), "{\"I\":\"4611686018427387904\"}")
        XCTAssertEqual(task?["nan"]?.serialized(), "{\"N\":\"nan\"}")
        XCTAssertEqual(task?["by"]?.serialized(), "{\"B\":\"AAH_\"}")
        XCTAssertEqual(task?["name"]?.stringValue, "café")
        XCTAssertEqual(task?["b"], .bool(true))
    }

    func test_DS_082_zero_field_record() throws {
        let h = try ds.create()
        try ds.put(h, rev: 0, "[[\"I\",\":info\",\"info\",{}]]")
        XCTAssertEqual(try ds.snapshot(h).text, "{\"rev\":1,\"rows\":[{\"tid\":\":info\",\"rowid\":\"info\",\"data\":{}}]}")
    }

    func test_DS_083_rows_ordered() throws {
        let h = try ds.createShared(key: "k83")
        try ds.put(h, rev: 0, "[[\"I\",\"b\",\"2\",{}],[\"I\",\"b\",\"1\",{}],[\"I\",\"a\",\"z\",{}],[\"I\",\":info\",\"info\",{}],"
                   + "[\"I\",\":acl\",\"public\",{\"role\":{\"I\":\"1000\"}}],[\"I\",\"B\",\"x\",{}]]")
        let rows = try ds.snapshot(h)["rows"]?.arrayValue ?? []
        XCTAssertEqual(rows.map { "\($0["tid"]?.stringValue ?? "")/\($0["rowid"]?.stringValue ?? "")" },
                       [":acl/public", ":info/info", "B/x", "a/z", "b/1", "b/2"])
    }

    func test_DS_084_shareable_role() throws {
        let h = try ds.createShared(key: "k84")
        try ds.put(h, rev: 0, DatastoreServer.grant("public", 1000))
        XCTAssertEqual(try ds.snapshot(h)["role"]?.int64Value, 3000)
        XCTAssertEqual(try ds.snapshot(h, token: DatastoreServer.tokenB)["role"]?.int64Value, 1000)
    }

    func test_DS_085_private_no_role() throws {
        XCTAssertEqual(try ds.snapshot(try ds.create()).keys, ["rev", "rows"])
    }

    func test_DS_086_number_lexemes_kept() throws {
        let h = try ds.create()
        try ds.put(h, rev: 0, "[[\"I\",\"t\",\"r\",{\"a\":1.50,\"b\":1E5,\"c\":true,\"d\":[1.50,false]}]]")
        let text = try ds.snapshot(h).text
        XCTAssertTrue(text.contains("\"a\":1.50"), text)
        XCTAssertTrue(text.contains("\"b\":1E5"), text)
        XCTAssertTrue(text.contains("\"c\":true"), text)
        XCTAssertTrue(text.contains("\"d\":[1.50,false]"), text)
    }

    func test_DS_087_snapshot_equals_replay() throws {
        let h = try ds.create()
        var model = DSReplayModel()
        var generator = DSSeededGenerator(seed: 87)
        for rev in 0..<60 {
            let changes = model.randomDelta(using: &generator)
            let r = try ds.put(h, rev: rev, changes)
            XCTAssertEqual(r.text, "{\"rev\":\(rev + 1)}", changes)
        }
        let rows = try ds.snapshot(h)["rows"]?.arrayValue ?? []
        let server = rows.map { "\($0["tid"]?.stringValue ?? "")/\($0["rowid"]?.stringValue ?? "")=\($0["data"]?.serialized(sortedKeys: true) ?? "")" }
        XCTAssertEqual(server, model.rendered())
        // Replaying the log the server returns gives the same state again.
        var replayed = DSReplayModel()
        for delta in try ds.deltas(h, rev: 0)["deltas"]?.arrayValue ?? [] {
            replayed.apply(delta["changes"]?.arrayValue ?? [])
        }
        XCTAssertEqual(replayed.rendered(), model.rendered())
    }
}

/// A small independent model of record state used to check the server's snapshot against replay.
struct DSReplayModel {
    private(set) var records: [String: JSONObject] = [:]   // "tid/rid" → fields

    mutating func apply(_ changes: [JSON]) {
        for change in changes {
            guard let parts = change.arrayValue, let tag = parts.first?.stringValue, parts.count >= 3,
                  let tid = parts[1].stringValue, let rid = parts[2].stringValue else { continue }
            let key = tid + "/" + rid
            switch tag {
            case "I": records[key] = parts[3].objectValue ?? JSONObject()
            case "D": records[key] = nil
            default:
                guard var fields = records[key], let ops = parts[3].objectValue else { continue }
                for (field, op) in ops { Self.applyOp(op.arrayValue ?? [], field, &fields) }
                records[key] = fields
            }
        }
    }

    private static func applyOp(_ op: [JSON], _ field: String, _ fields: inout JSONObject) {
        guard let tag = op.first?.stringValue else { return }
        var list = fields[field]?.arrayValue ?? []
        func index(_ i: Int) -> Int { Int(op[i].int64Value ?? 0) }
        switch tag {
        case "P": fields[field] = op[1]
        case "D": fields[field] = nil
        case "LC": fields[field] = .array([])
        case "LI": list.insert(op[2], at: index(1)); fields[field] = .array(list)
        case "LP": list[index(1)] = op[2]; fields[field] = .array(list)
        case "LD": list.remove(at: index(1)); fields[field] = .array(list)
        case "LM": let x = list.remove(at: index(1)); list.insert(x, at: index(2)); fields[field] = .array(list)
        default: break
        }
    }

    func rendered() -> [String] {
        records.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            .map { "\($0)=\(JSON.object(records[$0] ?? JSONObject()).serialized(sortedKeys: true))" }
    }

    /// A random valid delta against the current state; applies it to the model and returns its JSON text.
    mutating func randomDelta(using g: inout DSSeededGenerator) -> String {
        var changes: [JSON] = []
        for _ in 0..<Int.random(in: 1...4, using: &g) {
            let existing = records.keys.sorted()
            let roll = Int.random(in: 0..<10, using: &g)
            var change: JSON
            if existing.isEmpty || roll < 3 {
                let rid = "r\(Int.random(in: 0..<1_000_000, using: &g))"
                guard records["t/\(rid)"] == nil else { continue }
                change = ["I", "t", .string(rid), .object(["n": .number(JSONNumber(text: "1.50") ?? JSONNumber(1)),
                                                         "s": "x", "l": ["a", "b", "c"]])]
            } else {
                let key = existing[Int.random(in: 0..<existing.count, using: &g)]
                let rid = String(key.dropFirst(2))
                let fields = records[key] ?? JSONObject()
                let length = fields["l"]?.arrayValue?.count
                if roll == 9 {
                    change = ["D", "t", .string(rid)]
                } else if roll == 8, let length, length > 0 {
                    change = ["U", "t", .string(rid), ["l": ["LM", .int(Int.random(in: 0..<length, using: &g)),
                                                             .int(Int.random(in: 0..<length, using: &g))]]]
                } else if roll == 7, let length, length > 0 {
                    change = ["U", "t", .string(rid), ["l": ["LD", .int(Int.random(in: 0..<length, using: &g))]]]
                } else if roll == 6, let length {
                    change = ["U", "t", .string(rid), ["l": ["LI", .int(Int.random(in: 0...length, using: &g)), "z"]]]
                } else if roll == 5 {
                    change = ["U", "t", .string(rid), ["s": ["D"]]]
                } else {
                    change = ["U", "t", .string(rid), ["s": ["P", .string("v\(Int.random(in: 0..<100, using: &g))")],
                                                        "i": ["P", ["I": .string(String(Int.random(in: -5...5, using: &g)))]]]]
                }
            }
            apply([change])
            changes.append(change)
        }
        return JSON.array(changes).serialized()
    }
}

/// Deterministic generator (SplitMix64) so a failure reproduces.
struct DSSeededGenerator: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
