import Core

/// The operations of an update arranged as a tree of their paths (`a`, `a.b`, `a.c.d`), so that each Object
/// value on a path is opened, changed in place and closed once for all the operations below it, and the keys
/// an object loses are removed together. Applied one operation at a time, every dotted path copied the
/// Object it ran through and every deletion shifted the members after it: quadratic in the size of a wide
/// update of a wide Object.
///
/// No path may be a prefix of another (`a` with `a.b`, or `a.b` with `a.b.c`): which should win is
/// ambiguous (spec §6.3, 107). That also makes the order in which the operations run immaterial.
final class UpdatePaths {
    /// The most segments a dotted path may have: like a body's nesting (spec §3.9), it bounds how deep an
    /// update can make a stored object.
    static let maxSegments = 100

    static let conflict = ParseError(107, "Cannot modify a field and a key inside it in the same request")

    private let root = Node()

    private final class Node {
        /// The operation on this path; nil for a path only passed through.
        var op: FieldOperation?
        var children: [String: Node] = [:]
        /// Child keys in the order the body named them first.
        var order: [String] = []
    }

    /// Arranges `operations`; throws 107 when one path is a prefix of another.
    init(_ operations: [(path: [String], op: FieldOperation)]) throws {
        for (path, op) in operations {
            var node = root
            for segment in path {
                if node.op != nil { throw Self.conflict }
                if let next = node.children[segment] {
                    node = next
                } else {
                    let next = Node()
                    node.children[segment] = next
                    node.order.append(segment)
                    node = next
                }
            }
            // Keys of a body are distinct, so reaching a node with an operation means a longer path went first.
            if node.op != nil || !node.children.isEmpty { throw Self.conflict }
            node.op = op
        }
    }

    /// Applies every non-relation operation to `data`. Top-level fields are checked against `schema` for
    /// `required`. Returns the echo of spec §6.6 (dotted-path results nested).
    func apply(to data: inout JSONObject, schema: ClassSchema?) throws -> JSONObject {
        try Self.apply(root, to: &data, schema: schema) ?? JSONObject()
    }

    /// The `required` check `apply` makes, for data changed without a schema at hand (`PreparedUpdate`).
    static func checkRequired(_ operations: [(path: [String], op: FieldOperation)], in data: JSONObject,
                              schema: ClassSchema) throws {
        for (path, op) in operations where path.count == 1 && !op.isRelation {
            let value = data[path[0]]
            if let def = schema.field(path[0]), def.required, value == nil || value == .null || value == .string("") {
                throw ParseError(142, "\(path[0]) is required")
            }
        }
    }

    private static func apply(_ node: Node, to object: inout JSONObject, schema: ClassSchema?) throws -> JSONObject? {
        var echo = JSONObject()
        var echoed = false
        var removed: [String] = []
        for key in node.order {
            guard let child = node.children[key] else { continue }
            if let op = child.op {
                if op.isRelation { continue }
                let value = try op.apply(to: object[key], creating: false)
                if let value { object[key] = value } else { removed.append(key) }
                if op.echoed(onCreate: false) {
                    echo[key] = value ?? .null
                    echoed = true
                }
                if let def = schema?.field(key), def.required, value == nil || value == .null || value == .string("") {
                    throw ParseError(142, "\(key) is required")
                }
                continue
            }
            var inner: JSONObject
            switch object[key] {
            case nil, .null?: inner = JSONObject()
            case .object(let o)?: inner = o
            default: throw ParseError(111, "Cannot set a key inside a non-object value")
            }
            // Holds the key's place while `inner` is the only reference to its storage, so that changing it
            // does not copy it.
            object[key] = .null
            let innerEcho = try apply(child, to: &inner, schema: nil)
            object[key] = .object(inner)
            if let innerEcho {
                echo[key] = .object(innerEcho)
                echoed = true
            }
        }
        object.removeValues(forKeys: removed)
        return echoed ? echo : nil
    }
}
