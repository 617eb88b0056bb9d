/// Keys in recency order with a value each: O(1) insert at the front, touch (move to the front),
/// remove, and removal of the least recently used. The links live in a dictionary, so nodes need no
/// reference types.
struct LRUList<Key: Hashable, Value> {
    private struct Node {
        var value: Value
        var newer: Key?
        var older: Key?
    }

    private var nodes: [Key: Node] = [:]
    private var newest: Key?
    private var oldest: Key?

    /// Number of keys.
    var count: Int { nodes.count }

    /// The value for `key`, without changing its place.
    func peek(_ key: Key) -> Value? { nodes[key]?.value }

    /// The value for `key`, which becomes the most recently used.
    mutating func touch(_ key: Key) -> Value? {
        guard let node = nodes[key] else { return nil }
        if newest != key {
            unlink(key, node)
            pushFront(key, node.value)
        }
        return node.value
    }

    /// Adds `key` as the most recently used; returns the value it replaces, if any.
    @discardableResult
    mutating func insert(_ key: Key, _ value: Value) -> Value? {
        let old = remove(key)
        pushFront(key, value)
        return old
    }

    /// Removes `key`; returns its value.
    @discardableResult
    mutating func remove(_ key: Key) -> Value? {
        guard let node = nodes[key] else { return nil }
        unlink(key, node)
        return node.value
    }

    /// Removes and returns the least recently used key and value.
    mutating func removeOldest() -> (key: Key, value: Value)? {
        guard let key = oldest, let value = remove(key) else { return nil }
        return (key, value)
    }

    /// Keys from the most to the least recently used.
    var keysByRecency: [Key] {
        var keys: [Key] = []
        var cursor = newest
        while let key = cursor {
            keys.append(key)
            cursor = nodes[key]?.older
        }
        return keys
    }

    private mutating func pushFront(_ key: Key, _ value: Value) {
        nodes[key] = Node(value: value, newer: nil, older: newest)
        if let previous = newest { nodes[previous]?.newer = key }
        newest = key
        if oldest == nil { oldest = key }
    }

    private mutating func unlink(_ key: Key, _ node: Node) {
        if let newer = node.newer { nodes[newer]?.older = node.older } else { newest = node.older }
        if let older = node.older { nodes[older]?.newer = node.newer } else { oldest = node.newer }
        nodes[key] = nil
    }
}
