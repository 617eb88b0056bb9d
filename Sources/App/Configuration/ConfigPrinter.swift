import Core

/// Renders configuration for people without revealing secrets.
public enum ConfigPrinter {
    /// Keys whose values are secrets, matched case-insensitively on the key's last word.
    static let secretWords = ["password", "key", "secret", "token", "tokens"]

    /// A copy of `tree` with every secret value replaced by "********" (null stays null), at any depth:
    /// API sections nest secrets (`backbeam.projects.<p>.dev.keys[].secret`).
    public static func masked(_ tree: JSONObject) -> JSONObject {
        var out = JSONObject()
        for (section, value) in tree {
            guard let object = value.objectValue else { out[section] = value; continue }
            out[section] = .object(maskedMembers(object))
        }
        return out
    }

    private static func maskedMembers(_ object: JSONObject) -> JSONObject {
        var masked = JSONObject()
        for (key, v) in object {
            let lower = key.lowercased()
            let secret = secretWords.contains { lower.hasSuffix($0) } && !lower.hasSuffix("ips")
            masked[key] = secret && !v.isNull ? .string("********") : maskedValue(v)
        }
        return masked
    }

    private static func maskedValue(_ value: JSON) -> JSON {
        switch value {
        case .object(let object): return .object(maskedMembers(object))
        case .array(let items): return .array(items.map(maskedValue))
        default: return value
        }
    }
}

extension ConfigPrinter {
    /// The effective configuration as `check-config` prints it: JSON with sorted keys, secrets masked.
    public static func effectiveText(_ config: QuartetConfiguration) -> String {
        JSON.object(masked(config.tree)).serialized(sortedKeys: true)
    }
}
