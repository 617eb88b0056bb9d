import Core

/// The commands of one write request, grouped by field (§4.6).
///
/// The SDKs keep commands in a dictionary and cannot express an order, so the order in which a field's
/// commands apply is fixed: `set`, `incr`, `add`, `rem`, `del`. Fields keep the order their first command
/// arrived in, which is the order new fields enter the catalogue.
public struct CommandSet: Sendable, Equatable {
    /// The commands of each field, in arrival order of the field.
    public var fields: [FieldCommands]

    /// No commands.
    public init(fields: [FieldCommands] = []) {
        self.fields = fields
    }

    /// True when the request carries no command (a PUT without commands returns the object unchanged).
    public var isEmpty: Bool { fields.isEmpty }

    /// The commands of `field`, if any.
    public func commands(for field: String) -> FieldCommands? { fields.first { $0.field == field } }
}

/// Every command a request carries for one field.
public struct FieldCommands: Sendable, Equatable {
    /// The field id, without any type suffix.
    public var field: String
    /// The type given as a suffix on a command's name (`set-price#n`), if any (§4.3 rule 3).
    public var suffix: FieldType?
    /// `set-<f>=<v>`.
    public var set: String?
    /// `incr-<f>=<n>`; an empty value counts as 1 (the JS SDK's default).
    public var incr: String?
    /// `add-<f>=<id>...`: object references (`<entity>/<id>` or bare ids), in order.
    public var add: [String] = []
    /// `rem-<f>=<id>...`.
    public var rem: [String] = []
    /// `del-<f>=<anything>`.
    public var del = false
    /// The `set-` value read as JSON (a `#j` value, §2.5) when it starts with `{` or `[` and parses: read by
    /// `CommandParser.parse` on the request's worker, under the request limits on values and strings, so
    /// that the write job (on the single writer) types and stores it without parsing it again. Nil for
    /// other values.
    public var setJSON: JSON?

    /// Commands for `field`.
    public init(field: String, suffix: FieldType? = nil) {
        self.field = field
        self.suffix = suffix
    }
}

/// Reads the commands out of a request's parameters (§4.6).
public enum CommandParser {
    /// The command prefixes and what they do.
    enum Verb: CaseIterable {
        case set, incr, add, rem, del

        var prefix: String {
            switch self {
            case .set: return "set-"
            case .incr: return "incr-"
            case .add: return "add-"
            case .rem: return "rem-"
            case .del: return "del-"
            }
        }
    }

    /// Groups the command parameters by field. Names that are not commands (`key`, `nonce`, unknown names,
    /// Android's `<number>=incr-<f>` bug) are ignored. A command whose field part is empty or not a field id
    /// (`set-=x`, `set-a b=x`), names a reserved field (`created_at`, `login_*`, ...; on `file` also the
    /// server-managed fields of §5.3.4), or carries an unknown type suffix, or two different suffixes for one
    /// field, is refused with `InvalidParameters`.
    public static func parse(_ parameters: BackbeamParameters, entity: String) throws(BackbeamError) -> CommandSet {
        var set = CommandSet()
        var positions: [String: Int] = [:]
        for entry in parameters.entries {
            guard let (verb, rest) = verb(of: entry.name) else { continue }
            guard let (field, suffix) = FieldType.split(rest) else {
                throw BackbeamError(.invalidParameters, "Unknown type suffix in \(ParameterError.shown(entry.name))")
            }
            guard Identifiers.isFieldID(field) else {
                throw BackbeamError(.invalidParameters, "Invalid field name in \(ParameterError.shown(entry.name))")
            }
            guard !Identifiers.isReservedFieldID(field), !isServerManaged(field, entity: entity) else {
                throw BackbeamError(.invalidParameters, "The field '\(field)' cannot be changed")
            }
            let index: Int
            if let known = positions[field] {
                index = known
            } else {
                index = set.fields.count
                positions[field] = index
                set.fields.append(FieldCommands(field: field))
            }
            if let suffix {
                if let earlier = set.fields[index].suffix, earlier != suffix {
                    throw BackbeamError(.invalidParameters, "Two different types given for the field '\(field)'")
                }
                set.fields[index].suffix = suffix
            }
            switch verb {
            case .set: set.fields[index].set = entry.values.last
            case .incr: set.fields[index].incr = entry.values.last
            case .add: set.fields[index].add.append(contentsOf: entry.values)
            case .rem: set.fields[index].rem.append(contentsOf: entry.values)
            case .del: set.fields[index].del = true
            }
        }
        try readJSONValues(&set)
        return set
    }

    /// Parses every `set-` value that looks like JSON into `setJSON`. The values of all of them together
    /// count against `JSONRequestLimits.maxValues`, as the values of one JSON body do: an 8 MiB body of
    /// `[0,0,…]` values would otherwise parse to about 0.3 GB, inside the write job. Text that starts with
    /// `{` or `[` but is not JSON stays text (§4.3 inference); JSON over the limits is refused with 413.
    static func readJSONValues(_ set: inout CommandSet) throws(BackbeamError) {
        var valuesLeft = JSONRequestLimits.maxValues
        for index in set.fields.indices {
            guard let text = set.fields[index].set, let first = text.utf8.first,
                  first == UInt8(ascii: "{") || first == UInt8(ascii: "[") else { continue }
            var options = JSONParseOptions(maxDepth: FieldValues.maxJSONDepth)
            JSONRequestLimits.apply(to: &options)
            options.maxValues = valuesLeft
            do {
                let json = try JSONParser.parse(text, options: options)
                valuesLeft -= valueCount(json)
                set.fields[index].setJSON = json
            } catch .tooManyValues, .stringTooLong {
                throw BackbeamError(.requestTooLarge, "The JSON values of the request are too large", httpStatus: 413)
            } catch {
                continue
            }
        }
    }

    /// Values in `json`, itself included (what the parser counted for it).
    static func valueCount(_ json: JSON) -> Int {
        switch json {
        case .array(let items): return items.reduce(1) { $0 + valueCount($1) }
        case .object(let object): return object.reduce(1) { $0 + valueCount($1.value) }
        default: return 1
        }
    }

    /// The verb and the rest of a command name, compared on bytes (a combining mark after the prefix must not
    /// turn a command into an ignored name).
    static func verb(of name: String) -> (Verb, String)? {
        for verb in Verb.allCases where name.utf8.starts(with: verb.prefix.utf8) {
            let rest = name.utf8.dropFirst(verb.prefix.utf8.count)
            return (verb, String(decoding: rest, as: UTF8.self))
        }
        return nil
    }

    /// Fields of `file` objects that only the server writes (§5.3.4): clients need `version` to build
    /// download URLs, so none of them may be forged.
    public static let fileManagedFields: Set<String> = ["version", "filename", "mime", "size", "width", "height"]

    static func isServerManaged(_ field: String, entity: String) -> Bool {
        entity == "file" && fileManagedFields.contains(field)
    }
}
