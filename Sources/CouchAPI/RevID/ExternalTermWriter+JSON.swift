import Core

/// JSON to Erlang terms exactly as CouchDB's JSON decoder (jiffy) builds them, so that the bytes hashed
/// into a revision id match CouchDB's (§4.5, "JSON to terms").
extension ExternalTermWriter {
    /// Writes `value` as the term jiffy decodes it to.
    ///
    /// Recursion depth equals the value's nesting, which the Couch parser bounds at 512 levels.
    mutating func json(_ value: JSON) throws(TermEncodingError) {
        switch value {
        case .null: atom("null")
        case .bool(true): atom("true")
        case .bool(false): atom("false")
        case .string(let text): try binary(text.utf8)
        case .number(let number): try self.number(number)
        case .array(let elements): try array(elements)
        case .object(let object): try self.object(object)
        }
    }

    /// An object is the 1-tuple `{[{K1, V1}, …]}` with members in received order; `{}` is `68 01 6a`.
    /// Keys are binaries of their UTF-8 bytes after unescaping, as strings are.
    mutating func object(_ object: JSONObject) throws(TermEncodingError) {
        tupleHeader(arity: 1)
        if object.isEmpty {
            emptyList()
            return
        }
        try listHeader(count: object.count)
        for (key, value) in object {
            tupleHeader(arity: 2)
            try binary(key.utf8)
            try json(value)
        }
        emptyList()
    }

    /// An array is a list; `term_to_binary` writes a non-empty list of at most 65535 integers that are
    /// all 0…255 as STRING_EXT, whatever the list meant.
    private mutating func array(_ elements: [JSON]) throws(TermEncodingError) {
        if elements.isEmpty {
            emptyList()
            return
        }
        if elements.count <= 65_535, let small = Self.smallIntegers(elements) {
            byteList(small)
            return
        }
        try listHeader(count: elements.count)
        for element in elements { try json(element) }
        emptyList()
    }

    /// The elements as bytes when every one is an integer literal with a value in 0…255 (`-0` included:
    /// it is the integer 0); nil otherwise. `1.0` is a float, so it never qualifies.
    private static func smallIntegers(_ elements: [JSON]) -> [UInt8]? {
        var out: [UInt8] = []
        out.reserveCapacity(elements.count)
        for element in elements {
            guard case .number(let number) = element, number.isInteger,
                  let value = Int64(number.text), value >= 0, value <= 255 else { return nil }
            out.append(UInt8(truncatingIfNeeded: value))
        }
        return out
    }

    /// Integer literals are exact integers of any size (jiffy: int64 when it fits, bignum otherwise; the
    /// encoding depends only on the value). Decimal literals are the correctly rounded binary64 value of
    /// the exact decimal, so `1e2`, `1E2`, `100.0` all hash as the float 100.0, unlike the integer `100`.
    mutating func number(_ number: JSONNumber) throws(TermEncodingError) {
        let text = number.text
        guard number.isInteger else {
            // Swift's Double(String) is the C library's strtod: correctly rounded, nearest-even, with
            // gradual underflow to subnormals and signed zero.
            let value = number.doubleValue
            guard value.isFinite else { throw .decimalOverflow }
            float(value)
            return
        }
        if let value = Int64(text) {
            integer(value)
            return
        }
        // Beyond 64 bits (so beyond INTEGER_EXT's range too): a big integer.
        let negative = text.utf8.first == UInt8(ascii: "-")
        let digits = text.utf8.drop { $0 == UInt8(ascii: "-") }
        guard digits.count <= DecimalMagnitude.maxExactDigits else {
            // Past the conversion bound (see DecimalMagnitude): the 2-tuple {bignum, <<"literal">>}. JSON
            // decoding never yields a 2-tuple whose first element is an atom (object members start with
            // a binary key), so no other value hashes the same and edits stay distinguishable; only the
            // revision id differs from CouchDB's, as §4.5 allows for pathological numbers.
            tupleHeader(arity: 2)
            atom("bignum")
            try binary(text.utf8)
            return
        }
        try bigInteger(negative: negative, littleEndianMagnitude: DecimalMagnitude.littleEndianBytes(decimal: digits))
    }
}
