import Core

/// A value reduced to what the equality of `AddUnique` and `Remove` looks at (Parse Server's), as a hashable
/// key: two values are the same element exactly when their keys are equal. Numbers compare by value
/// (`1`, `1.0` and `1e0` are one element), pointers by class and id alone, plain objects by their members
/// whatever their order, arrays element by element, strings as Swift compares them.
///
/// Built once per element, so these operations hash their way through an array in linear time instead of
/// comparing every element with every other one and reading each number's text again on every comparison.
enum SameValueKey: Hashable, Sendable {
    case null
    case bool(Bool)
    /// The bit pattern of the number's double; -0 is stored as 0, which compares equal to it.
    case number(UInt64)
    case string(String)
    case array([SameValueKey])
    /// A `Pointer`: its `className` and `objectId` members as they are (other members do not count).
    case pointer(className: JSON?, objectId: JSON?)
    /// Any other object: members by the UTF-8 bytes of their keys, as `JSONObject` tells keys apart.
    case object([MemberName: SameValueKey])

    init(_ value: JSON) {
        switch value {
        case .null: self = .null
        case .bool(let b): self = .bool(b)
        case .number(let n):
            let d = n.doubleValue
            self = .number(d == 0 ? 0 : d.bitPattern)
        case .string(let s): self = .string(s)
        case .array(let items): self = .array(items.map(SameValueKey.init))
        case .object(let o):
            if o["__type"]?.stringValue == "Pointer" {
                self = .pointer(className: o["className"], objectId: o["objectId"])
                return
            }
            var members = [MemberName: SameValueKey](minimumCapacity: o.count)
            for (k, v) in o { members[MemberName(k)] = SameValueKey(v) }
            self = .object(members)
        }
    }

    /// An object member's name, equal only to the same UTF-8 bytes (Swift's `==` on strings would also
    /// match canonically equivalent spellings, which are two different keys of a JSON object).
    struct MemberName: Hashable, Sendable {
        let text: String
        init(_ text: String) { self.text = text }
        static func == (a: MemberName, b: MemberName) -> Bool { a.text.utf8.elementsEqual(b.text.utf8) }
        func hash(into hasher: inout Hasher) {
            var bytes = text
            bytes.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
            hasher.combine(0xFF as UInt8)   // never in UTF-8: ends the name
        }
    }
}
