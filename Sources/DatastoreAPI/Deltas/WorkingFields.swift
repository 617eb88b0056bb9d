import Core

/// A record's fields while a delta changes them. A deleted field leaves a hole instead of shifting the
/// fields after it, so a delta that deletes many fields of a wide record one change at a time stays linear
/// (`JSONObject` removes a member by moving every later one). Values are changed in place. The order is
/// `JSONObject`'s: a field set again after its deletion goes to the end.
struct WorkingFields {
    private var slots: [(key: String, value: JSON)?] = []
    /// Field name -> slot. Field names are ASCII (`Identifiers.isValidName`), so `String` equality is byte
    /// equality here.
    private var positions: [String: Int] = [:]

    init(_ object: JSONObject) {
        slots.reserveCapacity(object.count)
        positions.reserveCapacity(object.count)
        for (key, value) in object where positions[key] == nil {
            positions[key] = slots.count
            slots.append((key, value))
        }
    }

    subscript(key: String) -> JSON? {
        get { positions[key].flatMap { slots[$0]?.value } }
        set {
            if let i = positions[key] {
                if let newValue {
                    slots[i] = (key, newValue)
                } else {
                    slots[i] = nil
                    positions[key] = nil
                }
            } else if let newValue {
                positions[key] = slots.count
                slots.append((key, newValue))
            }
        }
    }

    /// Runs `body` on the value of `key` (nil when absent), in place: the slot is emptied meanwhile, so the
    /// value's storage (a long list) has a single owner and is not copied for the change.
    mutating func modify<E: Error>(_ key: String, _ body: (inout JSON?) throws(E) -> Void) throws(E) {
        guard let i = positions[key], let slot = slots[i] else {
            var value: JSON?
            try body(&value)
            self[key] = value
            return
        }
        slots[i] = nil
        var value: JSON? = slot.value
        defer {
            if let value {
                slots[i] = (key, value)
            } else {
                positions[key] = nil
            }
        }
        try body(&value)
    }

    /// The fields as an object, in order.
    var object: JSONObject {
        var pairs: [(String, JSON)] = []
        pairs.reserveCapacity(positions.count)
        for case let slot? in slots { pairs.append((slot.key, slot.value)) }
        return JSONObject(pairs)
    }
}
