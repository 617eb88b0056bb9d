import Core

/// The `objects` dictionary of a response (§4.4): every main, joined and fetched object, keyed by id,
/// each once however many ways it was reached (the first encoding is kept).
public struct WireObjects: Sendable {
    /// The encoded objects in insertion order.
    public private(set) var json = JSONObject()
    /// Fields left out because their stored text did not read under their type, as `id.field`.
    public private(set) var unreadable: [String] = []

    /// No objects.
    public init() {}

    /// Adds `object` unless an object with its id is already present.
    public mutating func add(_ object: WireObject) {
        guard !json.contains(object.id) else { return }
        let (encoded, bad) = ObjectEncoder.encode(object)
        json[object.id] = .object(encoded)
        unreadable.append(contentsOf: bad.map { object.id + "." + $0 })
    }

    /// Number of objects.
    public var count: Int { json.count }
}

/// The success bodies of §5 (the error body is `BackbeamError.body`).
public enum ResponseBodies {
    /// Object response: `{"status":..,"id":..,"objects":{..}}` plus `auth` when a session was issued
    /// (iOS requires both `id` and `objects`). `status` is `Success` or `PendingValidation`, or
    /// `UserAlreadyExists` for a returning social user.
    public static func object(id: String, objects: WireObjects, auth: String? = nil,
                              status: BackbeamStatus = .success) -> JSONObject {
        var body = JSONObject([("status", .string(status.rawValue)), ("id", .string(id)),
                               ("objects", .object(objects.json))])
        if let auth { body["auth"] = .string(auth) }
        return body
    }

    /// List response: `{"status":"Success","objects":{..},"ids":[..],"count":N}`, plus `distances`
    /// (integer metres parallel to `ids`) for near queries. `count` is always present (Android and iOS
    /// require it).
    public static func list(objects: WireObjects, ids: [String], count: Int, distances: [Int]? = nil) -> JSONObject {
        var body = JSONObject([("status", .string(BackbeamStatus.success.rawValue)),
                               ("objects", .object(objects.json)),
                               ("ids", .array(ids.map(JSON.string))),
                               ("count", .int(count))])
        if let distances { body["distances"] = .array(distances.map(JSON.int)) }
        return body
    }

    /// Remove-by-query response: `{"status":"Success","removed":N,"count":N}` (every SDK reads `removed`).
    public static func removed(_ n: Int) -> JSONObject {
        JSONObject([("status", .string(BackbeamStatus.success.rawValue)), ("removed", .int(n)), ("count", .int(n))])
    }

    /// `{"status":"Success"}` plus any extra members (`channels` of push, ...).
    public static func success(_ extra: [(String, JSON)] = []) -> JSONObject {
        JSONObject([("status", .string(BackbeamStatus.success.rawValue))] + extra)
    }
}
