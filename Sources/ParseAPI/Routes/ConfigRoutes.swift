import Core

/// `GET|PUT /config` (spec §15).
enum ConfigRoutes {
    static func register(_ t: inout RouteTable) {
        t.add(.get, "/config") { c in try get(c) }
        t.add(.put, "/config", RouteOptions(masterOnly: true,
                                            readOnlyDenial: "read-only masterKey isn't allowed to update the config.")) { c in
            try put(c)
        }
    }

    static func get(_ c: ParseContext) throws -> ParseReply {
        let entries = try c.read { try $0.configEntries() }
        let master = c.caller.readsAsMaster
        var params = JSONObject(), masterOnly = JSONObject()
        let renderer = ObjectRenderer(serverURL: c.serverURL, appId: c.app.appId, schema: nil)
        for e in entries where master || !e.masterOnly {
            params[e.key] = renderer.withFileURLs(e.value)
            if e.masterOnly { masterOnly[e.key] = true }
        }
        if entries.isEmpty { return .ok(["params": .object(params)]) }
        return .ok(["params": .object(params), "masterKeyOnly": .object(masterOnly)])
    }

    static func put(_ c: ParseContext) throws -> ParseReply {
        guard let params = c.body["params"]?.objectValue else { throw ParseError(107, "params must be an object") }
        let masterOnly = c.body["masterKeyOnly"]?.objectValue ?? JSONObject()
        try ForbiddenKeys.check(.object(params))
        var ops: [(String, FieldOperation)] = []
        for (k, v) in params {
            guard FieldNames.isValid(k) else { throw FieldNames.invalidField(k) }
            ops.append((k, try FieldOperation.parse(v)))
        }
        let flags = masterOnly
        let allOps = ops
        _ = try c.write { tx -> Bool in
            var current: [String: ConfigEntry] = [:]
            for e in try tx.configEntries() { current[e.key] = e }
            for (k, op) in allOps {
                let newValue = try op.apply(to: current[k]?.value, creating: current[k] == nil)
                if let newValue {
                    try tx.setConfig(ConfigEntry(key: k, value: newValue, masterOnly: flags[k]?.boolValue ?? false))
                } else {
                    try tx.deleteConfig(k)
                }
            }
            return true
        }
        return .ok(["result": true])
    }
}
