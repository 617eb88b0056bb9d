import XCTest
import Core
@testable import ParseAPI

/// AddUnique and Remove hash elements by `SameValueKey` instead of comparing every pair; the equality must stay
/// Parse Server's, as the pairwise comparison below (the previous implementation) defined it.
final class SameValueKeyTests: XCTestCase {
    /// The pairwise equality AddUnique/Remove used before: the reference the keys must agree with.
    static func referenceSame(_ a: JSON, _ b: JSON) -> Bool {
        if let ao = a.objectValue, let bo = b.objectValue, ao["__type"]?.stringValue == "Pointer",
           bo["__type"]?.stringValue == "Pointer" {
            return ao["className"] == bo["className"] && ao["objectId"] == bo["objectId"]
        }
        switch (a, b) {
        case (.number(let x), .number(let y)): return x.doubleValue == y.doubleValue
        case (.array(let x), .array(let y)): return x.count == y.count && zip(x, y).allSatisfy { referenceSame($0, $1) }
        case (.object(let x), .object(let y)):
            return x.count == y.count && x.allSatisfy { k, v in y[k].map { referenceSame(v, $0) } ?? false }
        default: return a == b
        }
    }

    static let corpus: [String] = [
        "null", "true", "false", "0", "-0", "0.0", "1", "1.0", "1e0", "10e-1", "2", "1.0000000000000001", "9007199254740993",
        "9007199254740992", "\"1\"", "\"\"", "\"a\"", "\"\\u00e9\"", "\"e\\u0301\"", "[]", "[1]", "[1.0]", "[1,2]", "[2,1]",
        "[[1]]", "[[1.0]]", "{}", #"{"a":1}"#, #"{"a":1.0}"#, #"{"b":1}"#, #"{"a":1,"b":2}"#, #"{"b":2,"a":1}"#,
        #"{"\u00e9":1}"#, #"{"e\u0301":1}"#, #"{"a":{"x":[1,{"y":2}]}}"#, #"{"a":{"x":[1.0,{"y":2e0}]}}"#,
        #"{"__type":"Pointer","className":"A","objectId":"x"}"#, #"{"__type":"Pointer","className":"A","objectId":"x","extra":1}"#,
        #"{"__type":"Pointer","className":"A","objectId":"y"}"#, #"{"__type":"Pointer","className":"B","objectId":"x"}"#,
        #"{"__type":"Pointer","objectId":"x"}"#, #"{"__type":"Pointer"}"#, #"{"__type":"Pointer","className":"A"}"#,
        #"{"__type":"pointer","className":"A","objectId":"x"}"#, #"{"__type":"Date","iso":"2024-01-01T00:00:00.000Z"}"#,
        #"[{"__type":"Pointer","className":"A","objectId":"x"}]"#, #"[{"__type":"Pointer","className":"A","objectId":"x","n":2}]"#,
        #"{"p":{"__type":"Pointer","className":"A","objectId":"x"}}"#, #"{"p":{"__type":"Pointer","className":"A","objectId":"x","q":1}}"#,
    ]

    func testKeysAgreeWithThePairwiseEqualityOnEveryPair() throws {
        let values = try Self.corpus.map { try JSONParser.parse($0) }
        for a in values {
            for b in values {
                XCTAssertEqual(SameValueKey(a) == SameValueKey(b), Self.referenceSame(a, b), "\(a) vs \(b)")
                if SameValueKey(a) == SameValueKey(b) { XCTAssertEqual(SameValueKey(a).hashValue, SameValueKey(b).hashValue) }
            }
        }
    }

    func op(_ text: String) throws -> FieldOperation { try FieldOperation.parse(try JSONParser.parse(text)) }

    func testAddUniqueKeepsTheFirstOfEquivalentValuesInOrder() throws {
        let stored = try JSONParser.parse(#"[1,{"a":1,"b":2},{"__type":"Pointer","className":"A","objectId":"x"},"é"]"#)
        let result = try op("""
            {"__op":"AddUnique","objects":[1.0,{"b":2,"a":1},{"__type":"Pointer","className":"A","objectId":"x"},\
            "e\\u0301",3,3.0,[1],[1.0],-0,0,{"__type":"Pointer","className":"A","objectId":"y"}]}
            """).apply(to: stored, creating: false)
        XCTAssertEqual(result, try JSONParser.parse(#"""
            [1,{"a":1,"b":2},{"__type":"Pointer","className":"A","objectId":"x"},"é",3,[1],-0,
            {"__type":"Pointer","className":"A","objectId":"y"}]
            """#))
    }

    func testRemoveTakesEveryEquivalentElement() throws {
        let stored = try JSONParser.parse(#"""
            [1,1.0,2,{"a":[1,2]},{"a":[2,1]},{"__type":"Pointer","className":"A","objectId":"x"},"x",0]
            """#)
        let result = try op("""
            {"__op":"Remove","objects":[1e0,{"a":[1.0,2.0]},{"__type":"Pointer","className":"A","objectId":"x","z":1},-0]}
            """).apply(to: stored, creating: false)
        XCTAssertEqual(result, try JSONParser.parse(#"[2,{"a":[2,1]},"x"]"#))
    }

    func testLargeOperationsGiveThePairwiseResult() throws {
        // 5,000 elements against 5,000 overlapping ones, numbers written both ways.
        let stored = JSON.array((0..<5_000).map { .number(JSONNumber($0 * 2)) })
        let adding = (0..<5_000).map { i -> JSON in i % 2 == 0 ? .number(JSONNumber(i)) : .double(Double(i) + 0.5) }
        let added = try FieldOperation.addUnique(adding).apply(to: stored, creating: false)?.arrayValue ?? []
        XCTAssertEqual(added.count, 5_000 + 2_500)
        XCTAssertEqual(Array(added.suffix(2)), [.double(4_997.5), .double(4_999.5)])
        let removed = try FieldOperation.remove(adding).apply(to: .array(added), creating: false)?.arrayValue ?? []
        XCTAssertEqual(removed, (2_500..<5_000).map { .number(JSONNumber($0 * 2)) })
    }
}
