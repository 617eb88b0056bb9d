import XCTest
@testable import Core

/// `JSONCompactor` accepts exactly what `JSONParser` accepts under the same options, and writes what
/// parsing and serializing would write.
final class JSONCompactorTests: XCTestCase {
    /// Couch's options: repeated keys and overflowing decimals refused.
    private static let options = JSONParseOptions(maxDepth: 512, maxBytes: .max, duplicateKeys: .reject,
                                                  allowsByteOrderMark: false, rejectsDecimalOverflow: true)

    /// The compact form of the whole text, or the error.
    private func compact(_ bytes: [UInt8], options: JSONParseOptions = options) -> Result<[UInt8], JSONError> {
        bytes.withUnsafeBufferPointer { buffer in
            var compactor = JSONCompactor(buffer: buffer, options: options)
            var out: [UInt8] = []
            do {
                try compactor.value(into: &out, depth: 0)
                guard compactor.atEnd() else { return .failure(.syntax(offset: compactor.position, message: "trailing")) }
                return .success(out)
            } catch {
                return .failure(error as? JSONError ?? .emptyInput)
            }
        }
    }

    /// Both readers agree on `text`: the same verdict, and the parser's serialization when accepted.
    private func assertAgrees(_ bytes: [UInt8], options: JSONParseOptions = options,
                              file: StaticString = #filePath, line: UInt = #line) {
        let parsed = Result { () throws(JSONError) in try JSONParser.parse(bytes, options: options) }
        switch (parsed, compact(bytes, options: options)) {
        case (.success(let value), .success(let out)):
            XCTAssertEqual(String(decoding: out, as: UTF8.self), value.serialized(), String(decoding: bytes, as: UTF8.self),
                           file: file, line: line)
        case (.failure, .failure):
            break
        case (let p, let c):
            XCTFail("parser \(p), compactor \(c) for \(String(decoding: bytes, as: UTF8.self))", file: file, line: line)
        }
    }

    func testCompactFormIsTheSerializersForWhitespaceAndEscapes() {
        let cases = [
            #" { "a" : [ 1 , -2.50e+3 , true , false , null ] , "b" : { } , "c" : [ ] } "#,
            #"{"s":"caf\u00e9 \/ \"q\" \\ \n \t \u0001 \ud83d\ude00 é"}"#,
            #"{"\u0061b":1,"x\/y":"\u2028"}"#,
            #"[0, 1.0, 1E5, -0, 123456789012345678901234567890]"#,
            "\t\r\n\"plain\"\n",
        ]
        for text in cases {
            assertAgrees(Array(text.utf8))
            XCTAssertNoThrow(try compact(Array(text.utf8)).get(), text)
        }
        XCTAssertEqual(try compact(Array(#"{"s":"\u00e9\/"}"#.utf8)).get(), Array(#"{"s":"é/"}"#.utf8))
    }

    func testRepeatedKeysAreRefusedOnTheirDecodedBytes() {
        for text in [#"{"a":1,"a":2}"#, #"{"a":1,"\u0061":2}"#, #"[{"x":{"k":1,"k":[]}}]"#] {
            XCTAssertEqual(compact(Array(text.utf8)).failure.map { if case .duplicateKey = $0 { true } else { false } }, true, text)
            assertAgrees(Array(text.utf8))
        }
        // Past the linear search: a table of hashes, still exact.
        let keys = (0..<40).map { "\"k\($0)\":\($0)" }
        assertAgrees(Array("{\(keys.joined(separator: ","))}".utf8))
        XCTAssertNoThrow(try compact(Array("{\(keys.joined(separator: ","))}".utf8)).get())
        XCTAssertNotNil(compact(Array("{\(keys.joined(separator: ",")),\"k17\":0}".utf8)).failure)
        // Keys of sibling objects do not meet.
        assertAgrees(Array(#"[{"a":1},{"a":2},{"b":{"a":3}}]"#.utf8))
    }

    func testLimitsAreThoseOfTheParser() {
        let text = Array(#"{"a":[1,2,{"b":"xyz"}],"c":null}"#.utf8)   // 7 values
        var options = Self.options
        options.maxValues = 7
        XCTAssertNoThrow(try compact(text, options: options).get())
        options.maxValues = 6
        XCTAssertEqual(compact(text, options: options).failure, .tooManyValues(limit: 6))
        assertAgrees(text, options: options)
        options = Self.options
        options.maxStringBytes = 3
        assertAgrees(text, options: options)
        XCTAssertNoThrow(try compact(text, options: options).get())
        options.maxStringBytes = 2
        XCTAssertEqual(compact(text, options: options).failure, .stringTooLong(limit: 2))
        let deep = Array((String(repeating: "[", count: 512) + String(repeating: "]", count: 512)).utf8)
        XCTAssertNoThrow(try compact(deep).get())
        let deeper = Array((String(repeating: "[", count: 513) + String(repeating: "]", count: 513)).utf8)
        XCTAssertEqual(compact(deeper).failure, .tooDeep(limit: 512))
        XCTAssertNotNil(compact(Array("[1e400]".utf8)).failure)
        XCTAssertNoThrow(try compact(Array("[1e400]".utf8), options: JSONParseOptions()).get())
    }

    func testMembersOfTheOutermostObjectAreListed() throws {
        let text = Array(#" { "a" : [ {"x":1} ] , "b":"c" } "#.utf8)
        try text.withUnsafeBufferPointer { buffer in
            var compactor = JSONCompactor(buffer: buffer, options: Self.options)
            var out: [UInt8] = []
            try compactor.value(into: &out, depth: 0, recordingMembers: true)
            let members = compactor.members.map { (String(decoding: out[$0.key], as: UTF8.self),
                                                   String(decoding: out[$0.value], as: UTF8.self)) }
            XCTAssertEqual(members.map(\.0), [#""a""#, #""b""#])
            XCTAssertEqual(members.map(\.1), [#"[{"x":1}]"#, #""c""#])
        }
    }

    /// Generated texts with random whitespace and escapes, then corrupted ones: same verdicts, same output.
    func testGeneratedAndCorruptedTextsAgreeWithTheParser() {
        var g = SplitMix64(state: 99)
        for round in 0..<3000 {
            var text: [UInt8] = []
            writeRandomValue(&g, depth: 0, into: &text)
            if round % 2 == 1 {
                for _ in 0...g.below(3) where !text.isEmpty {
                    let i = g.below(text.count)
                    switch g.below(3) {
                    case 0: text[i] = UInt8(truncatingIfNeeded: g.next())
                    case 1: text.remove(at: i)
                    default:
                        let punctuation = Array(#"{}[]",:\u"#.utf8)
                        text.insert(punctuation[g.below(punctuation.count)], at: i)
                    }
                }
            }
            assertAgrees(text)
        }
    }

    private static let whitespace: [String] = ["", "", "", " ", "\n", "\t ", "\r\n"]
    private static let texts: [String] = ["", "a", "k", "é", "😀", "\u{1}", "\n\"\\", "/", "\u{2028}", "x y"]
    private static let numbers: [String] = ["0", "-1", "12.5", "1e3", "-0.0E-2", "123456789012345678901234567890"]

    private func space(_ g: inout SplitMix64, _ out: inout [UInt8]) {
        out += Array(Self.whitespace[g.below(Self.whitespace.count)].utf8)
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
        switch g.below(depth > 3 ? 5 : 7) {
        case 0: out += Array("null".utf8)
        case 1: out += Array((g.below(2) == 0 ? "true" : "false").utf8)
        case 2: out += Array(Self.numbers[g.below(Self.numbers.count)].utf8)
        case 3, 4: writeString(&g, Self.texts[g.below(Self.texts.count)] + String(g.below(50)), into: &out)
        case 5:
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

private extension Result {
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
