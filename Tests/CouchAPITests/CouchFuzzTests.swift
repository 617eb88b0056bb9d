import XCTest
import Core
@testable import CouchAPI

/// Random and mutated inputs to the parsers that see client data never trap: each call returns a value
/// that satisfies the type's invariants, or a typed Couch error. Deterministic (SplitMix64), so a failure
/// reproduces; a few thousand cases each.
final class CouchFuzzTests: XCTestCase {
    private typealias Generator = SplitMix64

    /// Bytes with a bias towards the characters revision ids are made of.
    private static let alphabet = Array("0123456789abcdefABCDEF-xyz ~".utf8) + [0x00, 0x7f, 0x80, 0xc3, 0xa9, 0xff]

    private static let seeds = ["1-47f3268e7546965196b57572099f4372", "2-abc", "0-1", "2147483647-x",
                                "3-" + String(repeating: "ab", count: 20), "10-" + String(repeating: "F", count: 32)]

    private func mutate(_ bytes: [UInt8], _ g: inout Generator) -> [UInt8] {
        var out = bytes
        for _ in 0...g.below(3) {
            switch g.below(4) {
            case 0 where !out.isEmpty: out[g.below(out.count)] = g.pick(Self.alphabet)
            case 1: out.insert(g.pick(Self.alphabet), at: g.below(out.count + 1))
            case 2 where !out.isEmpty: out.remove(at: g.below(out.count))
            default: out.append(contentsOf: (0..<g.below(40)).map { _ in g.byte() })
            }
        }
        return out
    }

    func testRevIDParserOnRandomAndMutatedInput() {
        var g = Generator(state: 2024)
        var accepted = 0
        for i in 0..<4_000 {
            let input = i % 2 == 0 ? mutate(Array(g.pick(Self.seeds).utf8), &g)
                                   : (0..<g.below(300)).map { _ in g.pick(Self.alphabet) }
            do {
                let rev = try RevID(parsingUTF8: input)
                accepted += 1
                XCTAssertTrue((0...RevID.maxGeneration).contains(rev.generation))
                // The written form is canonical: it parses back to the same revision and text.
                let again = try RevID(parsing: rev.description)
                XCTAssertEqual(again, rev)
                XCTAssertEqual(again.description, rev.description)
                if case .text(let text) = rev.key { XCTAssertTrue((1...256).contains(text.count)) }
            } catch {
                XCTAssertEqual(error, .invalidRevFormat)
            }
        }
        // The corpus exercises both outcomes.
        XCTAssertGreaterThan(accepted, 200)
        XCTAssertLessThan(accepted, 3_800)
    }

    private func randomJSON(_ g: inout Generator, depth: Int = 0) -> JSON {
        switch g.below(depth > 2 ? 6 : 8) {
        case 0: return .null
        case 1: return .bool(g.below(2) == 0)
        case 2: return .number(g.pick(["0", "-1", "3", "1.0", "1e2", "2147483648", "99999999999999999999999", "-0"]).numberLiteral)
        case 3: return .int(g.below(10))
        case 4: return .string(String(decoding: (0..<g.below(40)).map { _ in g.pick(Self.alphabet) }, as: UTF8.self))
        case 5: return .string(g.pick(["a", "b", String(repeating: "c", count: 32), String(repeating: "0", count: 32), ""]))
        case 6: return .array((0..<g.below(5)).map { _ in randomJSON(&g, depth: depth + 1) })
        default:
            var object = JSONObject()
            for _ in 0..<g.below(4) { object[g.pick(["start", "ids", "x", "_rev"])] = randomJSON(&g, depth: depth + 1) }
            return .object(object)
        }
    }

    func testRevisionsValidationOnRandomValues() {
        var g = Generator(state: 77)
        var accepted = 0
        for _ in 0..<4_000 {
            var value = randomJSON(&g)
            if g.below(2) == 0 {
                // Mostly well-formed: a start and ids, each possibly wrong.
                let count = g.below(6)
                value = .object(["start": g.below(3) == 0 ? randomJSON(&g) : .int(g.below(8) - 1),
                                 "ids": g.below(4) == 0 ? randomJSON(&g)
                                     : .array((0..<count).map { _ in g.below(5) == 0 ? randomJSON(&g) : .string(g.pick(["a", "b", String(repeating: "d", count: 32)])) })])
            }
            do {
                let path = try RevPath(revisionsMember: value)
                accepted += 1
                XCTAssertGreaterThanOrEqual(path.start, path.count)
                XCTAssertGreaterThanOrEqual(path.count, 1)
                XCTAssertLessThanOrEqual(path.start, RevID.maxGeneration)
                XCTAssertEqual(path.revisions.map(\.generation), Array((path.start - path.count + 1...path.start).reversed()))
            } catch {
                XCTAssertEqual(error.status, 400)
                XCTAssertTrue(["doc_validation", "bad_request"].contains(error.error), "\(error)")
            }
        }
        XCTAssertGreaterThan(accepted, 100)
    }

    func testMutatedRevisionsTextThroughTheParser() {
        var g = Generator(state: 9)
        let seed = Array(#"{"_revisions":{"start":3,"ids":["c","47f3268e7546965196b57572099f4372","a"]},"_rev":"3-c","v":[1,2.5]}"#.utf8)
        for _ in 0..<3_000 {
            let bytes = mutate(seed, &g)
            do {
                let input = try DocumentInput(try CouchJSON.parse(bytes))
                if let path = input.revisions { XCTAssertGreaterThanOrEqual(path.start, path.count) }
                _ = try? RevisionHash.newRevID(parent: input.namedRevision, deleted: input.deleted, body: input.body)
            } catch {
                XCTAssertEqual(error.status, 400, "\(error)")
            }
        }
    }

    func testRandomTreesKeepTheirInvariantsAndSurviveDamagedBytes() throws {
        var g = Generator(state: 5)
        for round in 0..<150 {
            var tree = RevTree()
            for step in 0..<g.below(25) {
                let seq = Int64(step + 1)
                switch g.below(4) {
                case 0:
                    let count = g.below(4) + 1
                    let start = count + g.below(6)
                    let keys = (0..<count).map { _ in RevKey.text([g.pick(Array("abc".utf8))]) }
                    tree.mergeReplicated(try RevPath(start: start, keys: keys), deleted: g.below(4) == 0, seq: seq)
                case 1:
                    let requested = g.below(3) == 0 ? nil : tree.leaves.isEmpty ? nil : g.pick(tree.leaves).rev
                    _ = try? tree.applyInteractiveEdit(requested: requested, deleted: g.below(3) == 0,
                                                       body: ["r": .int(round), "s": .int(step)], seq: seq)
                case 2: tree.stem(limit: g.below(5))
                default: tree.dropNonLeafBodies()
                }
                checkInvariants(tree)
            }
            let bytes = tree.encoded()
            XCTAssertEqual(try RevTree(encoded: bytes), tree)
            for _ in 0..<10 {
                var damaged = bytes
                for _ in 0...g.below(3) where !damaged.isEmpty { damaged[g.below(damaged.count)] = g.byte() }
                if let decoded = try? RevTree(encoded: damaged) { checkInvariants(decoded) }
            }
        }
    }

    /// What every tree must satisfy, whatever produced it.
    private func checkInvariants(_ tree: RevTree, file: StaticString = #filePath, line: UInt = #line) {
        for (i, node) in tree.nodes.enumerated() {
            XCTAssertGreaterThanOrEqual(node.rev.generation, 1, file: file, line: line)
            if i > 0 { XCTAssertLessThan(tree.nodes[i - 1].rev, node.rev, file: file, line: line) }
            if node.parentIndex >= 0 {
                XCTAssertLessThan(node.parentIndex, i, file: file, line: line)
                XCTAssertEqual(tree.nodes[node.parentIndex].rev.generation, node.rev.generation - 1, file: file, line: line)
            } else {
                XCTAssertEqual(node.parentIndex, -1, file: file, line: line)
            }
        }
        if let winner = tree.winner {
            XCTAssertTrue(tree.isLeaf(winner.rev), file: file, line: line)
            XCTAssertEqual(tree.conflicts.count + tree.deletedConflicts.count + 1, tree.leaves.count, file: file, line: line)
        }
    }
}

private extension String {
    /// A number literal known to be valid in the tests above.
    var numberLiteral: JSONNumber { JSONNumber(text: self) ?? JSONNumber(0) }
}
