#if canImport(Glibc)
import Glibc
#endif

/// The decoded parameters of one request: an ordered multimap from names to their values.
///
/// Each name appears once, in the order it first arrived, holding one or more values in their final
/// order (list forms merged and index-sorted by `ParameterDecoder`). A scalar is a one-element list: the
/// spec makes a one-element list and a scalar interchangeable (§2.2), and the signature treats both the
/// same (§3.3), so one representation serves both.
public struct BackbeamParameters: Sendable, Equatable {
    /// The names and their values, in arrival order of each name.
    public private(set) var entries: [Entry]
    /// Name -> position in `entries`, built only for many names: requests carry a handful of parameters,
    /// where comparing a few short strings is cheaper than hashing them.
    private var index: [NameKey: Int]?

    /// One name with its values.
    public struct Entry: Sendable, Equatable {
        /// The decoded name (for list forms, without the brackets).
        public var name: String
        /// The values, never empty.
        public var values: [String]

        /// An entry; `values` should not be empty.
        public init(name: String, values: [String]) {
            self.name = name
            self.values = values
        }

        /// Equal when names and values have the same bytes (not merely canonically equivalent text).
        public static func == (a: Entry, b: Entry) -> Bool {
            a.name.utf8.elementsEqual(b.name.utf8) && a.values.count == b.values.count
                && zip(a.values, b.values).allSatisfy { $0.utf8.elementsEqual($1.utf8) }
        }
    }

    /// From this many names on, lookups use a dictionary.
    static let indexThreshold = 16

    /// No parameters.
    public init() {
        entries = []
        index = nil
    }

    /// Parameters from name/values pairs in order. A repeated name appends to the earlier entry, and a
    /// name with no values is left out, since a list that is sent empty never reaches the server.
    public init(_ pairs: [(String, [String])]) {
        self.init()
        for (name, values) in pairs { append(name, contentsOf: values) }
    }

    /// Parameters from single-valued pairs in order (repeated names become lists).
    public init(scalars pairs: [(String, String)]) {
        self.init(pairs.map { ($0.0, [$0.1]) })
    }

    /// Keeps room for `count` names.
    mutating func reserveCapacity(_ count: Int) { entries.reserveCapacity(count) }

    /// Number of distinct names.
    public var count: Int { entries.count }

    /// True when there are no parameters.
    public var isEmpty: Bool { entries.isEmpty }

    /// The names in arrival order.
    public var names: [String] { entries.map(\.name) }

    /// True when `name` is present.
    public func contains(_ name: String) -> Bool { position(of: name) != nil }

    /// All values of `name` in order; empty when absent.
    public func values(_ name: String) -> [String] {
        guard let i = position(of: name) else { return [] }
        return entries[i].values
    }

    /// The first value of `name`, or nil when absent. `ParameterDecoder` has already refused a scalar
    /// parameter with two values (§2.2), so for those this is the value.
    public func value(_ name: String) -> String? {
        guard let i = position(of: name) else { return nil }
        return entries[i].values.first
    }

    /// The value of `name` when present and not empty; nil otherwise (§3.4 treats both alike).
    public func nonEmptyValue(_ name: String) -> String? {
        guard let v = value(name), !v.isEmpty else { return nil }
        return v
    }

    /// `nonEmptyValue` for a name given as an ASCII literal, compared by length and `memcmp` (the
    /// signature check looks up five names in every signed request).
    func nonEmptyValue(ascii name: StaticString) -> String? {
        for entry in entries where ASCIILiteral.equals(entry.name, name) {
            guard let value = entry.values.first, !value.isEmpty else { return nil }
            return value
        }
        return nil
    }

    /// Appends `values` to `name`'s list, creating the entry at the end if new.
    public mutating func append(_ name: String, contentsOf values: [String]) {
        guard !values.isEmpty else { return }
        if let i = position(of: name) {
            entries[i].values.append(contentsOf: values)
        } else {
            entries.append(Entry(name: name, values: values))
            if index != nil {
                index?[NameKey(name)] = entries.count - 1
            } else if entries.count >= Self.indexThreshold {
                rebuildIndex()
            }
        }
    }

    /// Appends one value to `name`'s list.
    public mutating func append(_ name: String, _ value: String) { append(name, contentsOf: [value]) }

    private func position(of name: String) -> Int? {
        if let index { return index[NameKey(name)] }
        return entries.firstIndex { Self.sameBytes($0.name, name) }
    }

    /// True when `a` and `b` have the same UTF-8 bytes: lengths first, then one `memcmp` over contiguous
    /// storage (native strings always have it), which is far cheaper than the generic element-wise walk
    /// that every lookup of every request would otherwise pay for each name it passes.
    static func sameBytes(_ a: String, _ b: String) -> Bool {
        guard a.utf8.count == b.utf8.count else { return false }
        let fast = a.utf8.withContiguousStorageIfAvailable { pa in
            b.utf8.withContiguousStorageIfAvailable { pb -> Bool in
                guard let x = pa.baseAddress, let y = pb.baseAddress else { return pa.count == pb.count }
                return memcmp(x, y, pa.count) == 0
            }
        } ?? nil
        return fast ?? a.utf8.elementsEqual(b.utf8)
    }

    private mutating func rebuildIndex() {
        var table: [NameKey: Int] = [:]
        table.reserveCapacity(entries.count * 2)
        for (i, entry) in entries.enumerated() { table[NameKey(entry.name)] = i }
        index = table
    }

    /// A name compared by its exact UTF-8 bytes. Swift's `String ==` treats canonically equivalent texts
    /// (`é` and `e` + combining accent) as equal, but they are different parameters to the clients, which
    /// sign each under its own name.
    struct NameKey: Hashable {
        let name: String
        init(_ name: String) { self.name = name }
        static func == (a: NameKey, b: NameKey) -> Bool { a.name.utf8.elementsEqual(b.name.utf8) }
        func hash(into hasher: inout Hasher) {
            for byte in name.utf8 { hasher.combine(byte) }
        }
    }

    /// Equal when the same names hold the same values in the same order.
    public static func == (a: BackbeamParameters, b: BackbeamParameters) -> Bool { a.entries == b.entries }
}
