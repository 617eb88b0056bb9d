import Core
import Foundation

/// The revision term of a body read without a tree: the same Erlang terms `json(_:)` writes for the parsed
/// value (§4.5, "JSON to terms"), written straight from the body's compact text, `JSONCompactor`'s output.
///
/// That text is what serializing the parsed value gives, so each piece maps to what the tree held: a string
/// without a backslash is its raw bytes, one with escapes has only the serializer's escapes (`\"`, `\\`,
/// `\n`, `\r`, `\t`, `\b`, `\f`, `\u00XX`), numbers are their literals, members and elements are in order.
/// Anything else (text that is not such output) makes the reading fail (nil), so callers fall back to
/// the tree; it never guesses.
extension ExternalTermWriter {
    /// Writes the object whose members are `members` (ranges of each quoted key and of its value in
    /// `text`), as `object(_:)` writes the parsed object. False when some piece is not compact JSON as
    /// `JSONCompactor` writes it (nothing sensible is left in the writer then).
    mutating func compactObject(_ text: UnsafeBufferPointer<UInt8>,
                                members: some Collection<(key: Range<Int>, value: Range<Int>)>) -> Bool {
        tupleHeader(arity: 1)
        if members.isEmpty {
            emptyList()
            return true
        }
        var scratch: [UInt8] = []
        do {
            try listHeader(count: members.count)
            for (key, value) in members {
                tupleHeader(arity: 2)
                var keyReader = CompactTermReader(text: text, index: key.lowerBound, end: key.upperBound)
                try keyReader.string(into: &self, scratch: &scratch)
                var valueReader = CompactTermReader(text: text, index: value.lowerBound, end: value.upperBound)
                try valueReader.value(into: &self, scratch: &scratch, depth: 0)
                guard keyReader.index == key.upperBound, valueReader.index == value.upperBound else { return false }
            }
        } catch {
            return false
        }
        emptyList()
        return true
    }
}

/// Why compact text could not be read as terms: not text `JSONCompactor` writes, or a term the format cannot
/// hold. Never shown to anyone (the tree's way then answers).
struct CompactTermFault: Error {}

/// A cursor over one value of compact JSON text, writing its terms.
struct CompactTermReader {
    let text: UnsafeBufferPointer<UInt8>
    var index: Int
    /// One past the last byte this reader may look at.
    let end: Int

    /// The parser's nesting limit bounds the compactor's output; this only keeps the recursion bounded
    /// should other text ever reach here.
    private static let maxDepth = CouchJSON.maxDepth

    private func byte(at i: Int) throws(CompactTermFault) -> UInt8 {
        guard i >= 0, i < end, i < text.count else { throw CompactTermFault() }
        return text[i]
    }

    /// One value of any kind.
    mutating func value(into writer: inout ExternalTermWriter, scratch: inout [UInt8], depth: Int) throws(CompactTermFault) {
        switch try byte(at: index) {
        case UInt8(ascii: "\""): try string(into: &writer, scratch: &scratch)
        case UInt8(ascii: "{"): try object(into: &writer, scratch: &scratch, depth: depth)
        case UInt8(ascii: "["): try array(into: &writer, scratch: &scratch, depth: depth)
        case UInt8(ascii: "t"): try literal("true", then: { $0.atom("true") }, writer: &writer)
        case UInt8(ascii: "f"): try literal("false", then: { $0.atom("false") }, writer: &writer)
        case UInt8(ascii: "n"): try literal("null", then: { $0.atom("null") }, writer: &writer)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try number(into: &writer)
        default: throw CompactTermFault()
        }
    }

    private mutating func literal(_ word: StaticString, then write: (inout ExternalTermWriter) -> Void,
                                  writer: inout ExternalTermWriter) throws(CompactTermFault) {
        let length = word.utf8CodeUnitCount
        guard index &+ length <= end, index &+ length <= text.count else { throw CompactTermFault() }
        let matches = word.withUTF8Buffer { w in
            var i = 0
            while i < length {
                if w[i] != text[index &+ i] { return false }
                i &+= 1
            }
            return true
        }
        guard matches else { throw CompactTermFault() }
        index &+= length
        write(&writer)
    }

    /// `{[{K1, V1}, …]}`; the member count is filled in when the object closes.
    private mutating func object(into writer: inout ExternalTermWriter, scratch: inout [UInt8], depth: Int) throws(CompactTermFault) {
        guard depth < Self.maxDepth else { throw CompactTermFault() }
        index &+= 1
        writer.tupleHeader(arity: 1)
        if try byte(at: index) == UInt8(ascii: "}") {
            index &+= 1
            writer.emptyList()
            return
        }
        let header = writer.offset
        writer.openList()
        var count = 0
        while true {
            writer.tupleHeader(arity: 2)
            try string(into: &writer, scratch: &scratch)
            guard try byte(at: index) == UInt8(ascii: ":") else { throw CompactTermFault() }
            index &+= 1
            try value(into: &writer, scratch: &scratch, depth: depth &+ 1)
            count &+= 1
            let next = try byte(at: index)
            index &+= 1
            if next == UInt8(ascii: ",") { continue }
            guard next == UInt8(ascii: "}") else { throw CompactTermFault() }
            break
        }
        do { try writer.finishList(header: header, count: count, smallIntegers: false) } catch { throw CompactTermFault() }
    }

    /// A list; one of at most 65535 integers in 0…255 becomes STRING_EXT when it closes (`finishList`).
    private mutating func array(into writer: inout ExternalTermWriter, scratch: inout [UInt8], depth: Int) throws(CompactTermFault) {
        guard depth < Self.maxDepth else { throw CompactTermFault() }
        index &+= 1
        if try byte(at: index) == UInt8(ascii: "]") {
            index &+= 1
            writer.emptyList()
            return
        }
        let header = writer.offset
        writer.openList()
        var count = 0
        var smallIntegers = true
        while true {
            let start = writer.offset
            try value(into: &writer, scratch: &scratch, depth: depth &+ 1)
            // Only an integer in 0…255 is written as two bytes starting with SMALL_INTEGER_EXT's tag.
            if smallIntegers, !(writer.offset &- start == 2 && writer.bytes[start] == 0x61) { smallIntegers = false }
            count &+= 1
            let next = try byte(at: index)
            index &+= 1
            if next == UInt8(ascii: ",") { continue }
            guard next == UInt8(ascii: "]") else { throw CompactTermFault() }
            break
        }
        do { try writer.finishList(header: header, count: count, smallIntegers: smallIntegers) } catch { throw CompactTermFault() }
    }

    /// A string (or key) as the binary of its decoded bytes.
    mutating func string(into writer: inout ExternalTermWriter, scratch: inout [UInt8]) throws(CompactTermFault) {
        guard try byte(at: index) == UInt8(ascii: "\"") else { throw CompactTermFault() }
        let start = index &+ 1
        let limit = min(end, text.count)
        guard let base = text.baseAddress else { throw CompactTermFault() }
        guard start <= limit else { throw CompactTermFault() }
        // A compact string holds no raw `"`, so its end is the first `"` not written as `\"`. For a plain
        // string, nearly every one, that is the first `"` with no `\` before it: two `memchr`s.
        var i: Int
        var escaped = false
        guard let quote = memchr(base + start, Int32(UInt8(ascii: "\"")), limit &- start) else { throw CompactTermFault() }
        i = UnsafeRawPointer(quote) - UnsafeRawPointer(base)
        if memchr(base + start, Int32(UInt8(ascii: "\\")), i &- start) != nil {
            escaped = true
            i = start
            while true {
                guard i < limit else { throw CompactTermFault() }
                let c = base[i]
                if c == UInt8(ascii: "\"") { break }
                i &+= c == UInt8(ascii: "\\") ? 2 : 1
            }
        }
        guard i < limit else { throw CompactTermFault() }
        index = i &+ 1
        do {
            if !escaped {
                try writer.binary(UnsafeBufferPointer(rebasing: text[start..<i]))
                return
            }
            scratch.removeAll(keepingCapacity: true)
            try Self.unescape(UnsafeBufferPointer(rebasing: text[start..<i]), into: &scratch)
            try writer.binary(scratch)
        } catch {
            throw CompactTermFault()
        }
    }

    /// The bytes the serializer's escapes stand for; any other escape is not its output.
    private static func unescape(_ raw: UnsafeBufferPointer<UInt8>, into out: inout [UInt8]) throws(CompactTermFault) {
        var i = 0
        while i < raw.count {
            let c = raw[i]
            guard c == UInt8(ascii: "\\") else {
                out.append(c)
                i &+= 1
                continue
            }
            guard i &+ 1 < raw.count else { throw CompactTermFault() }
            switch raw[i &+ 1] {
            case UInt8(ascii: "\""): out.append(UInt8(ascii: "\""))
            case UInt8(ascii: "\\"): out.append(UInt8(ascii: "\\"))
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "u"):
                // Only control characters are written as `\u00XX`.
                guard i &+ 6 <= raw.count, raw[i &+ 2] == UInt8(ascii: "0"), raw[i &+ 3] == UInt8(ascii: "0"),
                      let high = hexValue(raw[i &+ 4]), let low = hexValue(raw[i &+ 5]), high < 2 else {
                    throw CompactTermFault()
                }
                out.append(high << 4 | low)
                i &+= 6
                continue
            default:
                throw CompactTermFault()
            }
            i &+= 2
        }
    }

    private static func hexValue(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return c &- UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return c &- UInt8(ascii: "a") &+ 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return c &- UInt8(ascii: "A") &+ 10
        default: return nil
        }
    }

    /// A number literal: integers of up to 18 digits are read here (they fit Int64 whatever they are), every
    /// other literal goes through `JSONNumber` and the tree's own `number(_:)`, so both ways agree.
    private mutating func number(into writer: inout ExternalTermWriter) throws(CompactTermFault) {
        let start = index
        let limit = min(end, text.count)
        var i = start
        var integral = true
        while i < limit {
            let c = text[i]
            if (c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9")) || c == UInt8(ascii: "-") || c == UInt8(ascii: "+") {
                i &+= 1
            } else if c == UInt8(ascii: ".") || c == UInt8(ascii: "e") || c == UInt8(ascii: "E") {
                integral = false
                i &+= 1
            } else {
                break
            }
        }
        guard i > start else { throw CompactTermFault() }
        index = i
        let negative = text[start] == UInt8(ascii: "-")
        let firstDigit = negative ? start &+ 1 : start
        if integral, i &- firstDigit >= 1, i &- firstDigit <= 18 {
            var value: Int64 = 0
            var j = firstDigit
            while j < i {
                let digit = text[j] &- UInt8(ascii: "0")
                guard digit <= 9 else { throw CompactTermFault() }
                // At most 18 digits: below 10^18, no overflow.
                value = value &* 10 &+ Int64(digit)
                j &+= 1
            }
            writer.integer(negative ? 0 &- value : value)
            return
        }
        guard let literal = JSONNumber(text: String(decoding: UnsafeBufferPointer(rebasing: text[start..<i]), as: UTF8.self))
        else { throw CompactTermFault() }
        do { try writer.number(literal) } catch { throw CompactTermFault() }
    }
}
