/// Why a value could not be written as an Erlang term.
enum TermEncodingError: Error, Sendable, Equatable {
    /// A decimal literal whose binary64 value is infinite: CouchDB refuses such a body, so no revision
    /// id exists for it. The parser's Couch options refuse these before they get here.
    case decimalOverflow
    /// A length past what the format's 32-bit length fields hold (impossible under the body limits).
    case tooLong
}

/// Writes Erlang's external term format, the subset `term_to_binary(Term, [{minor_version, 1}])`
/// produces for CouchDB's revision term (spec §4.5). All multi-byte lengths and numbers are big-endian.
///
/// Each method writes one row of the spec's table. Containers are written as a header, then their
/// elements through further calls, then (lists only) the tail.
struct ExternalTermWriter {
    /// The encoded bytes so far.
    private(set) var bytes: [UInt8]

    /// A writer whose output starts with the format's version byte 131 (0x83), as `term_to_binary` does.
    init(capacity: Int = 256) {
        bytes = []
        bytes.reserveCapacity(capacity)
        bytes.append(131)
    }

    /// A writer of a term to be embedded in another one later (`raw`): no version byte.
    init(fragmentCapacity capacity: Int) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    /// ATOM_EXT `64` u16 length, Latin-1 name. `minor_version 1` keeps atoms in this old form instead of
    /// the UTF-8 atom tags `76`/`77`; only `true`, `false` and `null` ever occur.
    mutating func atom(_ name: StaticString) {
        let length = name.utf8CodeUnitCount
        bytes.append(0x64)
        appendBigEndian(UInt16(truncatingIfNeeded: length))
        name.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// An integer known to fit 64 bits: SMALL_INTEGER_EXT `61` u8 for 0…255, INTEGER_EXT `62` i32 for
    /// the rest of −2^31…2^31−1, SMALL_BIG_EXT `6e` beyond (Erlang picks the shortest tag that holds the
    /// value, and the hash depends on that choice).
    mutating func integer(_ value: Int64) {
        if value >= 0, value <= 255 {
            bytes.append(0x61)
            bytes.append(UInt8(truncatingIfNeeded: value))
        } else if value >= Int64(Int32.min), value <= Int64(Int32.max) {
            bytes.append(0x62)
            appendBigEndian(UInt32(bitPattern: Int32(truncatingIfNeeded: value)))
        } else {
            // magnitude exists for Int64.min too (2^63 fits UInt64).
            var magnitude = value.magnitude
            var littleEndian: [UInt8] = []
            while magnitude > 0 {
                littleEndian.append(UInt8(truncatingIfNeeded: magnitude))
                magnitude >>= 8
            }
            // At most 8 bytes: the SMALL_BIG_EXT form never fails here.
            try? bigInteger(negative: value < 0, littleEndianMagnitude: littleEndian)
        }
    }

    /// An integer beyond 64 bits given as sign and minimal little-endian magnitude: SMALL_BIG_EXT
    /// `6e` u8(n) sign magnitude when n ≤ 255 bytes, LARGE_BIG_EXT `6f` u32(n) sign magnitude otherwise.
    /// Sign byte 0 is positive, 1 negative. The caller passes values outside −2^31…2^31−1 only.
    mutating func bigInteger(negative: Bool, littleEndianMagnitude magnitude: [UInt8]) throws(TermEncodingError) {
        if magnitude.count <= 255 {
            bytes.append(0x6E)
            bytes.append(UInt8(truncatingIfNeeded: magnitude.count))
        } else {
            guard let n = UInt32(exactly: magnitude.count) else { throw .tooLong }
            bytes.append(0x6F)
            appendBigEndian(n)
        }
        bytes.append(negative ? 1 : 0)
        bytes.append(contentsOf: magnitude)
    }

    /// NEW_FLOAT_EXT `46` followed by the IEEE-754 binary64 bits, big-endian. `minor_version 1` is why this
    /// is not the 31-byte text form `63` of minor version 0.
    mutating func float(_ value: Double) {
        bytes.append(0x46)
        appendBigEndian(value.bitPattern)
    }

    /// BINARY_EXT `6d` u32 length, then the bytes: strings, object keys, attachment names and types,
    /// digests and rev keys.
    mutating func binary(_ content: some Collection<UInt8>) throws(TermEncodingError) {
        guard let n = UInt32(exactly: content.count) else { throw .tooLong }
        bytes.append(0x6D)
        appendBigEndian(n)
        bytes.append(contentsOf: content)
    }

    /// SMALL_TUPLE_EXT `68` u8 arity; the elements follow. Arity 1 wraps objects, 2 members, 3 attachments.
    mutating func tupleHeader(arity: UInt8) {
        bytes.append(0x68)
        bytes.append(arity)
    }

    /// NIL_EXT `6a`: the empty list, and the tail that ends every LIST_EXT.
    mutating func emptyList() {
        bytes.append(0x6A)
    }

    /// LIST_EXT `6c` u32 count; the elements follow, then `emptyList()` as the proper tail. For a
    /// non-empty list that is not an all-bytes list (see `byteList`).
    mutating func listHeader(count: Int) throws(TermEncodingError) {
        guard let n = UInt32(exactly: count) else { throw .tooLong }
        bytes.append(0x6C)
        appendBigEndian(n)
    }

    /// STRING_EXT `6b` u16 count, one byte per element: how `term_to_binary` always writes a non-empty
    /// list of at most 65535 integers that are all 0…255 (erts `is_external_string`). The caller checks
    /// both conditions; `[1,2,3]` in a body hashes as `6b 00 03 01 02 03`, not as a LIST_EXT.
    mutating func byteList(_ elements: [UInt8]) {
        bytes.append(0x6B)
        appendBigEndian(UInt16(truncatingIfNeeded: elements.count))
        bytes.append(contentsOf: elements)
    }

    /// Bytes already in the format (a body's term encoded earlier), appended as they are.
    mutating func raw(_ encoded: [UInt8]) {
        bytes.append(contentsOf: encoded)
    }

    /// Where the next byte goes: the offset a later `finishList` names.
    var offset: Int { bytes.count }

    /// Writes a LIST_EXT header whose count is not known yet; `finishList` fills it in.
    mutating func openList() {
        bytes.append(contentsOf: [0x6C, 0, 0, 0, 0])
    }

    /// Completes a list opened by `openList` at `header` with `count` elements written since (`count` > 0):
    /// the count and the proper tail, or, when `smallIntegers` (every element was written as
    /// SMALL_INTEGER_EXT, `61` and one byte) and there are at most 65535, the STRING_EXT form that
    /// `term_to_binary` gives such a list (see `byteList`), made in place from the elements' bytes.
    mutating func finishList(header: Int, count: Int, smallIntegers: Bool) throws(TermEncodingError) {
        guard header >= 0, header &+ 5 <= bytes.count else { throw .tooLong }
        if smallIntegers, count <= 65_535, bytes.count == header &+ 5 &+ count &* 2 {
            bytes[header] = 0x6B
            bytes[header &+ 1] = UInt8(truncatingIfNeeded: count >> 8)
            bytes[header &+ 2] = UInt8(truncatingIfNeeded: count)
            // Element i's byte is at header + 5 + 2i + 1; it moves to header + 3 + i, never past a byte
            // still to be read.
            var i = 0
            while i < count {
                bytes[header &+ 3 &+ i] = bytes[header &+ 6 &+ i &* 2]
                i &+= 1
            }
            bytes.removeSubrange((header &+ 3 &+ count)...)
            return
        }
        guard let n = UInt32(exactly: count) else { throw .tooLong }
        bytes[header &+ 1] = UInt8(truncatingIfNeeded: n >> 24)
        bytes[header &+ 2] = UInt8(truncatingIfNeeded: n >> 16)
        bytes[header &+ 3] = UInt8(truncatingIfNeeded: n >> 8)
        bytes[header &+ 4] = UInt8(truncatingIfNeeded: n)
        bytes.append(0x6A)
    }

    private mutating func appendBigEndian<T: FixedWidthInteger>(_ value: T) {
        var shift = T.bitWidth - 8
        while shift >= 0 {
            bytes.append(UInt8(truncatingIfNeeded: value >> shift))
            shift -= 8
        }
    }
}
