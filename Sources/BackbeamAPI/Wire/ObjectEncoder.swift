import Core

/// One field of an object as the encoder receives it from the store.
public enum WireFieldValue: Sendable, Equatable {
    /// A value-type field (any type but `#r`) with its stored text in request encoding (§4.3).
    case value(FieldType, String)
    /// A to-one reference. Unjoined it renders `{"id":..,"type":..}` (iOS and Android build an empty
    /// object from it and drop a bare string); joined or fetched, the bare id, with the object itself in
    /// `objects` (§4.5).
    case toOne(id: String, entity: String, joined: Bool)
    /// A joined to-many relationship: the ids in join order and the relationship's total size. `result`
    /// is written even when empty (Android throws without it). Unjoined to-many fields are not passed.
    case toMany(result: [String], count: Int)
}

/// An object as the encoder receives it from the store.
public struct WireObject: Sendable, Equatable {
    /// The object id.
    public var id: String
    /// The entity id (`type` on the wire).
    public var entity: String
    /// Creation time, ms.
    public var createdAt: Int64
    /// Last change, ms.
    public var updatedAt: Int64
    /// Field id -> value, in the order to write them. Fields without a value are simply absent.
    public var fields: [(name: String, value: WireFieldValue)]
    /// For users: `login_<short>_<key>` -> string (§4.7), in order.
    public var loginData: [(key: String, value: String)]

    /// An object.
    public init(id: String, entity: String, createdAt: Int64, updatedAt: Int64,
                fields: [(name: String, value: WireFieldValue)] = [], loginData: [(key: String, value: String)] = []) {
        self.id = id
        self.entity = entity
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.fields = fields
        self.loginData = loginData
    }

    /// Equal when every part is.
    public static func == (a: WireObject, b: WireObject) -> Bool {
        a.id == b.id && a.entity == b.entity && a.createdAt == b.createdAt && a.updatedAt == b.updatedAt
            && a.fields.map(\.name) == b.fields.map(\.name) && a.fields.map(\.value) == b.fields.map(\.value)
            && a.loginData.map(\.key) == b.loginData.map(\.key) && a.loginData.map(\.value) == b.loginData.map(\.value)
    }
}

/// The object JSON of §4.4: `type`, `created_at`, `updated_at`, then `"<field>#<suffix>": value` for
/// every field with a value, then the `login_*` keys of users. Nothing else: no `_id`, no ACL, no nulls.
public enum ObjectEncoder {
    /// The encoded object, and the ids of fields whose stored text does not read under their type (a
    /// schema changed a field's type after values were stored, §4.3). Those are left out of the object;
    /// the caller logs them.
    public static func encode(_ object: WireObject) -> (json: JSONObject, unreadable: [String]) {
        var json = JSONObject()
        var unreadable: [String] = []
        json["type"] = .string(object.entity)
        json["created_at"] = .number(JSONNumber(object.createdAt))
        json["updated_at"] = .number(JSONNumber(object.updatedAt))
        for (name, value) in object.fields {
            // Defence in depth: a user's password never leaves the server in any form (§4.4), even if a
            // store passed it by mistake.
            if object.entity == "user" && name == "password" { continue }
            switch value {
            case .value(let type, let text):
                guard let encoded = encodeValue(type, text) else {
                    unreadable.append(name)
                    continue
                }
                json[name + "#" + type.suffix] = encoded
            case .toOne(let id, let entity, let joined):
                json[name + "#r"] = joined ? .string(id)
                    : .object(JSONObject([("id", .string(id)), ("type", .string(entity))]))
            case .toMany(let result, let count):
                json[name + "#r"] = .object(JSONObject([("result", .array(result.map(JSON.string))),
                                                        ("count", .int(count))]))
            }
        }
        for (key, value) in object.loginData { json[key] = .string(value) }
        return (json, unreadable)
    }

    /// The JSON of one stored value: numbers and dates as JSON numbers (integral ones without a decimal
    /// point), booleans as JSON booleans (Android needs a real boolean), `#j` embedded, `#l` as an object,
    /// text types and days as strings. Nil when the text does not read under `type`.
    public static func encodeValue(_ type: FieldType, _ text: String) -> JSON? {
        switch type {
        case .text, .textarea, .richText, .select: return .string(text)
        case .number: return FieldValues.numberJSON(text).map(JSON.number)
        case .date: return FieldValues.date(text).map { .number(JSONNumber($0)) }
        case .boolean: return FieldValues.boolean(text).map(JSON.bool)
        case .day: return FieldValues.day(text).map(JSON.string)
        case .json: return FieldValues.json(text)
        case .location: return Location.parse(text).map { .object($0.json) }
        case .reference: return nil   // references are passed as .toOne / .toMany
        }
    }
}
