import XCTest
@testable import BackbeamAPI

/// A small deterministic generator (SplitMix64), so every run feeds the same inputs.
struct SplitMix64 {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A value in `0..<bound` (bound > 0).
    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }

    mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }

    mutating func chance(_ percent: Int) -> Bool { below(100) < percent }
}

/// Random and mutated inputs never trap and always come back as a value or a typed error
/// (the fuzz requirement for the BQL parser and the parameter decoder).
final class FuzzTests: XCTestCase {
    private static let bqlPieces = [
        "where", "WHERE", "join", "first", "last", "having", "fetch", "sort", "by", "asc", "desc", "and", "or", "not",
        "is", "in", "has", "like", "this", "?", ".", ",", "(", ")", "=", "<", ">", "<=", ">=", "5", "10.5", "0",
        "name", "some-field", "a_b", "created_at", " ", "\t", "\n", "'", "\"", "--", ";", "é", "\u{1F600}", "\0", "!",
        "99999999999999999999999",
    ]

    /// Mutates `text`: insert, delete, replace or duplicate a slice, at random byte-safe places.
    private func mutate(_ text: String, _ rng: inout SplitMix64) -> String {
        var scalars = Array(text.unicodeScalars)
        for _ in 0...rng.below(4) {
            let at = scalars.isEmpty ? 0 : rng.below(scalars.count + 1)
            switch rng.below(4) {
            case 0: scalars.insert(contentsOf: rng.pick(Self.bqlPieces).unicodeScalars, at: at)
            case 1: if at < scalars.count { scalars.removeSubrange(at..<min(scalars.count, at + 1 + rng.below(6))) }
            case 2: if at < scalars.count { scalars[at] = rng.pick(Array("?()=<>.,x 9\u{0}é".unicodeScalars)) }
            default:
                if at < scalars.count {
                    let end = min(scalars.count, at + 1 + rng.below(12))
                    scalars.insert(contentsOf: scalars[at..<end], at: at)
                }
            }
        }
        var out = String.UnicodeScalarView()
        out.append(contentsOf: scalars)
        return String(out)
    }

    /// Parses and, when that succeeds, binds and type-checks every constraint: every outcome must be a
    /// value or a BQLError, and a parsed query must respect the limits.
    private func exercise(_ text: String, joinsOnly: Bool = false) -> Bool {
        let limits = BQLLimits()
        do {
            let query = joinsOnly ? try BQLParser.parseJoins(text) : try BQLParser.parse(text)
            XCTAssertLessThanOrEqual(query.joins.count, limits.maxJoins, text)
            let all = (query.condition?.constraints ?? []) + query.joins.flatMap { $0.having?.constraints ?? [] }
            XCTAssertLessThanOrEqual(all.count, limits.maxConstraints, text)
            let bound = try BQLBoundQuery.bind(query, params: Array(repeating: "user/abc", count: query.placeholderCount))
            for constraint in all {
                for kind in [BQLFieldKind.this, .timestamp, .scalar(.text), .scalar(.number), .toOne, .toMany, .unknown] {
                    _ = try? BQLTypeCheck.value(of: constraint, in: bound, kind: kind)
                }
            }
            return true
        } catch {
            if let offset = error.offset { XCTAssertLessThanOrEqual(offset, text.utf8.count, text) }
            XCTAssertFalse(error.message.isEmpty)
            return false
        }
    }

    func testBQLParserOnMutatedCorpus() {
        var rng = SplitMix64(seed: 0xB0B0_BEEF)
        var parsed = 0
        for i in 0..<3_000 {
            let text = mutate(BQLCorpus.all[i % BQLCorpus.all.count], &rng)
            if exercise(text, joinsOnly: i % 7 == 0) { parsed += 1 }
        }
        // Mutations must leave some queries valid and break others, or the test exercises too little.
        XCTAssertGreaterThan(parsed, 100)
        XCTAssertLessThan(parsed, 2_900)
    }

    func testBQLParserOnRandomTokenSoup() {
        var rng = SplitMix64(seed: 42)
        for _ in 0..<3_000 {
            let count = rng.below(40)
            let text = (0..<count).map { _ in rng.pick(Self.bqlPieces) }.joined(separator: rng.chance(70) ? " " : "")
            _ = exercise(text)
        }
        // Deep and long inputs near the limits.
        _ = exercise("where " + String(repeating: "(", count: 5_000))
        _ = exercise(String(repeating: "join a ", count: 400))
        _ = exercise("where " + Array(repeating: "a=?", count: 800).joined(separator: " or "))
    }

    func testBQLParserOnRandomBytes() {
        var rng = SplitMix64(seed: 7)
        for _ in 0..<2_000 {
            let bytes = (0..<rng.below(60)).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            _ = exercise(String(decoding: bytes, as: UTF8.self))
        }
    }

    private static let queryPieces = [
        "key", "nonce", "params", "params[]", "params[0]", "params%5B1%5D", "k[99999999999999999999]", "a[b]", "=", "&",
        "&&", "%", "%2", "%zz", "%FF", "%C3%A9", "+", "_method", "GET", "DELETE", "PATCH", "callback", "cb", "alert(1)",
        "set-name", "incr-x", "del-", "add-t", "[", "]", "é", "\u{1F600}", "%00", "q", "where a=?",
    ]

    /// Decodes and, when that succeeds, computes the canonical string and runs the verifier: every
    /// outcome must be a value or a typed error, and decoded parameters must respect the limits.
    private func exercise(method: String, query: [UInt8], body: ParameterBody, limits: ParameterLimits) {
        do {
            let decoded = try ParameterDecoder(limits: limits).decode(httpMethod: method, query: query, body: body)
            for entry in decoded.parameters.entries {
                XCTAssertFalse(entry.values.isEmpty)
                XCTAssertLessThanOrEqual(entry.values.count, limits.maxListLength)
                if ParameterDecoder.isScalar(entry.name) { XCTAssertEqual(entry.values.count, 1) }
            }
            XCTAssertTrue(["GET", "POST", "PUT", "DELETE"].contains(decoded.effectiveMethod) || decoded.effectiveMethod == method.uppercased())
            _ = CanonicalString.bytes(parameters: decoded.parameters, method: decoded.effectiveMethod, path: "/data/x")
            _ = try? SignatureVerifier().verify(parameters: decoded.parameters, method: decoded.effectiveMethod,
                                                rawPath: "/data/%zz", now: 1_397_166_331_409,
                                                secretForKey: { _ in "s" }, nonces: NonceReplayCache(capacity: 4))
        } catch {
            XCTAssertEqual(error.backbeamError.status, .invalidParameters)
        }
    }

    func testParameterDecoderOnRandomInputs() {
        var rng = SplitMix64(seed: 0xDECAF)
        let small = ParameterLimits(maxParameters: 20, maxNameBytes: 24, maxValueBytes: 40, maxListLength: 5)
        for i in 0..<3_000 {
            let query = Array((0..<rng.below(25)).map { _ in rng.pick(Self.queryPieces) }.joined().utf8)
            var body: ParameterBody
            switch rng.below(3) {
            case 0: body = .none
            case 1:
                var bytes = Array((0..<rng.below(25)).map { _ in rng.pick(Self.queryPieces) }.joined().utf8)
                if rng.chance(20), !bytes.isEmpty { bytes[rng.below(bytes.count)] = UInt8(truncatingIfNeeded: rng.next()) }
                body = .urlencoded(bytes)
            default:
                body = .multipart((0..<rng.below(6)).map { _ in
                    MultipartField(name: rng.pick(Self.queryPieces),
                                   value: (0..<rng.below(8)).map { _ in UInt8(truncatingIfNeeded: rng.next()) },
                                   filename: rng.chance(20) ? "f.bin" : nil)
                })
            }
            let method = rng.pick(["GET", "POST", "PUT", "DELETE", "get", "HEAD"])
            exercise(method: method, query: query, body: body, limits: i % 2 == 0 ? small : ParameterLimits())
        }
    }

    func testParameterDecoderOnRandomBytes() {
        var rng = SplitMix64(seed: 99)
        for _ in 0..<2_000 {
            let query = (0..<rng.below(80)).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            let body = (0..<rng.below(80)).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            exercise(method: "POST", query: query, body: .urlencoded(body), limits: ParameterLimits())
        }
    }
}
