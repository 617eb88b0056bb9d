/// The list forms a decoded parameter name can take (§2.2, §7.3 item 1).
///
/// The three SDKs encode one list three ways: iOS (AFNetworking) sends `k[]=a&k[]=b`, Android and the
/// Node SDK's `qs` send `k[0]=a&k[1]=b` (Node with the brackets percent-encoded, which is why this is
/// read after decoding), and the browser SDK repeats the plain name. All three mean the list `k`.
enum ParameterName {
    /// How a name denotes its list element.
    enum Form: Equatable {
        /// `k`: a scalar, or one element of a repeated name.
        case plain
        /// `k[]`: the next element.
        case appended
        /// `k[<digits>]`: the element at that index.
        case indexed(ListIndex)
    }

    /// Splits `k[]` and `k[<digits>]` into the base name and form. Any other bracket syntax (`a[b]`,
    /// `a[b][c]`, `a[`, `[0]`) is a literal name: such names are no list form any SDK sends, so they are
    /// kept whole and end up ignored as unknown parameters.
    static func split(_ name: String) -> (base: String, form: Form) {
        let bytes = name.utf8
        guard bytes.last == UInt8(ascii: "]"),
              let open = bytes.firstIndex(of: UInt8(ascii: "[")), open != bytes.startIndex else {
            return (name, .plain)
        }
        let inside = bytes[bytes.index(after: open)..<bytes.index(before: bytes.endIndex)]
        // Sliced on the UTF-8 view: `[` is ASCII, so the cut is always between whole scalars.
        let base = String(decoding: bytes[bytes.startIndex..<open], as: UTF8.self)
        if inside.isEmpty { return (base, .appended) }
        guard inside.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
            return (name, .plain)
        }
        return (base, .indexed(ListIndex(digits: inside)))
    }
}

/// A list index of any length, compared numerically without converting it to an integer (so
/// `k[99999999999999999999]` neither overflows nor traps): leading zeros are dropped, then a shorter
/// digit string is smaller, and equal lengths compare digit by digit.
struct ListIndex: Comparable {
    let digits: [UInt8]

    init<S: Sequence>(digits: S) where S.Element == UInt8 {
        let all = Array(digits)
        let significant = all.drop { $0 == UInt8(ascii: "0") }
        self.digits = Array(significant)
    }

    static func < (a: ListIndex, b: ListIndex) -> Bool {
        if a.digits.count != b.digits.count { return a.digits.count < b.digits.count }
        return a.digits.lexicographicallyPrecedes(b.digits)
    }
}
