import XCTest
import Core
@testable import CouchAPI

/// The tree-less `PUT` reader gives what the general way (a JSON tree split by `DocumentInput`, serialized
/// and hashed) gives for the bodies it takes, byte for byte (stored body, revision term, revision id), and
/// gives up on everything else, so that the general way answers.
final class SingleDocumentReaderTests: XCTestCase {
    /// What one way made of a body: the stored text, the revision term and id (the child of the `_rev` sent,
    /// or a first revision), and the special members read.
    private struct Outcome: Equatable {
        var body: String
        var term: [UInt8]
        var rev: String?
        var deleted: Bool
        var revision: String
    }

    private func general(_ bytes: [UInt8]) -> Outcome? {
        guard let json = try? CouchJSON.parseRequest(bytes), let input = try? DocumentInput(json) else { return nil }
        guard let term = try? RevisionHash.termBytes(parent: input.rev, deleted: input.deleted, body: input.body,
                                                     attachments: []),
              let first = try? RevisionHash.newRevID(parent: input.rev, deleted: input.deleted, body: input.body)
        else { return nil }
        return Outcome(body: JSON.object(input.body).serialized(), term: term, rev: input.rev?.description,
                       deleted: input.deleted, revision: first.description)
    }

    private func treeless(_ bytes: [UInt8]) -> Outcome? {
        guard let document = SingleDocumentReader.read(bytes, maxDocIDLength: DocumentID.defaultMaxLength) else { return nil }
        guard let term = try? RevisionHash.termBytes(parent: document.rev, deleted: document.deleted,
                                                     body: .term(document.term), attachments: []),
              let first = try? RevisionHash.newRevID(parent: document.rev, deleted: document.deleted,
                                                     body: .term(document.term))
        else { return nil }
        return Outcome(body: String(decoding: document.body, as: UTF8.self), term: term,
                       rev: document.rev?.description, deleted: document.deleted, revision: first.description)
    }

    /// The reader takes `text` and agrees with the general way.
    private func assertTakenAndSame(_ text: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let bytes = Array(text.utf8)
        let fast = try XCTUnwrap(treeless(bytes), "not taken: \(text)", file: file, line: line)
        XCTAssertEqual(fast, general(bytes), text, file: file, line: line)
    }

    /// The reader gives up on `text` (the general way then reads it).
    private func assertGivesUp(_ text: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertNil(SingleDocumentReader.read(Array(text.utf8), maxDocIDLength: DocumentID.defaultMaxLength), text,
                     file: file, line: line)
    }

    func testUsualBodiesAreTakenAndAgree() throws {
        try assertTakenAndSame(#"{"name":"posted 1","rating":4711,"pad":"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"}"#)
        try assertTakenAndSame("{}")
        try assertTakenAndSame(" { \"a\" : [ 1 , 2 , 300 ] , \"b\" : [ 1 , 2 , 3 ] , \"c\" : [ ] , \"d\" : { } } ")
        try assertTakenAndSame(#"{"_id":"x","_rev":"1-967a00dff5e02add41819138abb3284d","v":[0,-0,255,256,-1,1.0,1e2]}"#)
        try assertTakenAndSame(#"{"_deleted":true,"_rev":"2-abc","_conflicts":[],"_revs_info":{},"_local_seq":3}"#)
        try assertTakenAndSame(#"{"s":"caf\u00e9 \/ \"q\" \\ \n\r\t\b\f\u0001\u001f \ud83d\ude00 é"}"#)
        try assertTakenAndSame(#"{"big":123456789012345678901234567890,"neg":-9223372036854775808,"i":9223372036854775807}"#)
        try assertTakenAndSame(#"{"f":-0.0,"g":1.5e-320,"h":2.5E+3,"i":[true,false,null,"s",[[[]]],{"k":{}}]}"#)
        // Escapes in an id are decoded by the compactor: `"a\u0062"` is the plain `"ab"`.
        try assertTakenAndSame(#"{"_id":"a\u0062","_local_seq":1}"#)
        try assertTakenAndSame(#"{"l":[\#((0...255).map(String.init).joined(separator: ","))]}"#)
    }

    func testRarerShapesAndFaultsAreLeftToTheGeneralWay() {
        assertGivesUp(#"[1]"#)
        assertGivesUp(#""text""#)
        assertGivesUp(#"{"a":1"#)
        assertGivesUp(#"{"a":1,"a":2}"#)
        assertGivesUp(#"{"a":1} x"#)
        assertGivesUp(#"{"_attachments":{}}"#)
        assertGivesUp(#"{"_revisions":{"start":1,"ids":["abc"]}}"#)
        assertGivesUp(#"{"_access":["u"]}"#)
        assertGivesUp(#"{"_replication_state":"x"}"#)
        assertGivesUp(#"{"_other":1}"#)
        assertGivesUp(#"{"_id":1}"#)
        assertGivesUp(#"{"_id":"_bad"}"#)
        assertGivesUp(#"{"_rev":"x"}"#)
        assertGivesUp(#"{"_rev":1}"#)
        assertGivesUp(#"{"_deleted":"true"}"#)
        assertGivesUp(#"{"n":1e400}"#)
    }

    /// Generated bodies (random members, special members good and bad, escapes, numbers of every kind, small
    /// integer lists), then corrupted ones: whenever the reader takes one, the general way accepts it and
    /// gives the same stored body, term and revision ids; and every uncorrupted body of the usual shape is taken.
    func testGeneratedAndCorruptedBodiesAgreeWithTheGeneralWay() {
        var g = SplitMix64(state: 2026)
        var taken = 0
        for round in 0..<4000 {
            var text: [UInt8] = []
            let usual = writeDocument(&g, into: &text)
            let corrupted = round % 3 == 2
            if corrupted {
                for _ in 0...g.below(3) where !text.isEmpty {
                    let i = g.below(text.count)
                    switch g.below(3) {
                    case 0: text[i] = UInt8(truncatingIfNeeded: g.next())
                    case 1: text.remove(at: i)
                    default:
                        let punctuation = Array(#"{}[]",:\u_-.e0"#.utf8)
                        text.insert(punctuation[g.below(punctuation.count)], at: i)
                    }
                }
            }
            let fast = treeless(text)
            let description = String(decoding: text, as: UTF8.self)
            if let fast {
                taken += 1
                XCTAssertEqual(fast, general(text), description)
            } else if usual, !corrupted, general(text) != nil {
                XCTFail("not taken: \(description)")
            }
        }
        // Most generated bodies are of the usual shape: the comparison above is not vacuous.
        XCTAssertGreaterThan(taken, 1500)
    }

    private static let whitespace: [String] = ["", "", "", " ", "\n", "\t ", "\r\n"]
    private static let texts: [String] = ["", "a", "k", "é", "😀", "\u{1}", "\n\"\\", "/", "\u{2028}", "x y", "\u{8}\u{c}\t"]
    private static let numbers: [String] = ["0", "-0", "1", "255", "256", "-1", "12.5", "1e3", "-0.0E-2", "1.0",
                                            "2147483647", "2147483648", "-2147483648", "-2147483649",
                                            "999999999999999999", "1000000000000000000", "9223372036854775807",
                                            "9223372036854775808", "-9223372036854775809",
                                            "123456789012345678901234567890", "5e-324", "1.7976931348623157e308"]

    private func space(_ g: inout SplitMix64, _ out: inout [UInt8]) {
        out += Array(Self.whitespace[g.below(Self.whitespace.count)].utf8)
    }

    /// A document: ordinary members and, now and then, special ones. True when it is of the shape the reader
    /// takes (only `_id`, `_rev`, `_deleted` and echoed read-only members, all well formed).
    private func writeDocument(_ g: inout SplitMix64, into out: inout [UInt8]) -> Bool {
        var usual = true
        var members: [[UInt8]] = []
        var names: Set<String> = []
        for _ in 0..<g.below(6) {
            let name = Self.texts[g.below(Self.texts.count)] + String(g.below(4))
            guard names.insert(name).inserted else { continue }
            var member: [UInt8] = []
            writeString(&g, name, into: &member)
            space(&g, &member)
            member.append(UInt8(ascii: ":"))
            writeRandomValue(&g, depth: 1, into: &member)
            members.append(member)
        }
        let specials: [(String, String, Bool)] = [
            ("_id", #""doc-1""#, true), ("_id", #""_design/d""#, true), ("_id", #""_bad""#, false), ("_id", "7", false),
            ("_rev", #""1-967a00dff5e02add41819138abb3284d""#, true), ("_rev", #""3-abc""#, true),
            ("_rev", #""junk""#, false), ("_deleted", "true", true), ("_deleted", "false", true), ("_deleted", "1", false),
            ("_conflicts", "[]", true), ("_revs_info", #"[{"rev":"1-a"}]"#, true), ("_local_seq", "12", true),
            ("_deleted_conflicts", "[]", true), ("_attachments", "{}", false), ("_access", #"["a"]"#, false),
            ("_revisions", #"{"start":1,"ids":["abc"]}"#, false), ("_other", "1", false),
        ]
        var used: Set<String> = []
        for _ in 0..<g.below(3) {
            let (name, value, fine) = specials[g.below(specials.count)]
            guard used.insert(name).inserted else { continue }
            usual = usual && fine
            members.insert(Array("\"\(name)\":\(value)".utf8), at: g.below(members.count + 1))
        }
        space(&g, &out)
        out.append(UInt8(ascii: "{"))
        for (i, member) in members.enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            space(&g, &out)
            out += member
        }
        space(&g, &out)
        out.append(UInt8(ascii: "}"))
        space(&g, &out)
        return usual
    }

    /// A string literal whose characters are written raw or escaped at random.
    private func writeString(_ g: inout SplitMix64, _ text: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for scalar in text.unicodeScalars {
            let mustEscape = scalar.value < 0x20 || scalar == "\"" || scalar == "\\"
            if mustEscape || g.below(4) == 0 {
                if scalar.value > 0xFFFF {
                    let v = scalar.value - 0x10000
                    out += Array(String(format: "\\u%04x\\u%04x", 0xD800 + (v >> 10), 0xDC00 + (v & 0x3FF)).utf8)
                } else if scalar == "/" {
                    out += Array(#"\/"#.utf8)
                } else if scalar == "\n", g.below(2) == 0 {
                    out += Array(#"\n"#.utf8)
                } else {
                    out += Array(String(format: "\\u%04X", scalar.value).utf8)
                }
            } else {
                out += Array(String(scalar).utf8)
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    private func writeRandomValue(_ g: inout SplitMix64, depth: Int, into out: inout [UInt8]) {
        space(&g, &out)
        switch g.below(depth > 3 ? 5 : 8) {
        case 0: out += Array("null".utf8)
        case 1: out += Array((g.below(2) == 0 ? "true" : "false").utf8)
        case 2: out += Array(Self.numbers[g.below(Self.numbers.count)].utf8)
        case 3, 4: writeString(&g, Self.texts[g.below(Self.texts.count)] + String(g.below(50)), into: &out)
        case 5:
            // Integer lists, often all in 0…255 (STRING_EXT in the term).
            out.append(UInt8(ascii: "["))
            for i in 0..<g.below(6) {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                space(&g, &out)
                out += Array((g.below(8) == 0 ? Self.numbers[g.below(Self.numbers.count)] : String(g.below(256))).utf8)
            }
            space(&g, &out)
            out.append(UInt8(ascii: "]"))
        case 6:
            out.append(UInt8(ascii: "["))
            for i in 0..<g.below(4) {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                writeRandomValue(&g, depth: depth + 1, into: &out)
            }
            space(&g, &out)
            out.append(UInt8(ascii: "]"))
        default:
            out.append(UInt8(ascii: "{"))
            // Few distinct keys, so that some objects repeat one (sometimes spelled with escapes).
            for i in 0..<g.below(5) {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                space(&g, &out)
                writeString(&g, Self.texts[g.below(Self.texts.count)] + String(g.below(3)), into: &out)
                space(&g, &out)
                out.append(UInt8(ascii: ":"))
                writeRandomValue(&g, depth: depth + 1, into: &out)
            }
            space(&g, &out)
            out.append(UInt8(ascii: "}"))
        }
        space(&g, &out)
    }
}
