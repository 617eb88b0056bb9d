/// The `:name` segments of a matched route, decoded, in the route's order.
///
/// A route has at most a few parameters, so a short list compared by name serves better than a
/// dictionary, which every matched request would otherwise build and hash into.
public struct PathParameters: Sendable, Equatable, ExpressibleByDictionaryLiteral {
    /// The names and values in the route's order.
    public private(set) var pairs: [(name: String, value: String)]

    /// No parameters.
    public init() { pairs = [] }

    /// Parameters from literal pairs (for tests and fixed calls).
    public init(dictionaryLiteral elements: (String, String)...) {
        pairs = elements.map { (name: $0.0, value: $0.1) }
    }

    /// Adds `name` (a route's parameter names are distinct).
    mutating func append(_ name: String, _ value: String) {
        pairs.append((name, value))
    }

    /// Keeps room for `count` parameters.
    mutating func reserveCapacity(_ count: Int) { pairs.reserveCapacity(count) }

    /// The value of `name`, nil when the route has no such parameter.
    public subscript(name: String) -> String? {
        for pair in pairs where pair.name == name { return pair.value }
        return nil
    }

    /// Equal when the same names hold the same values in the same order.
    public static func == (a: PathParameters, b: PathParameters) -> Bool {
        a.pairs.count == b.pairs.count && zip(a.pairs, b.pairs).allSatisfy { $0.name == $1.name && $0.value == $1.value }
    }
}
