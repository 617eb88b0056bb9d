/// The entries of a collection-constraint parameter (§6.2): object ids and, for users, identities.
public struct BQLCollection: Sendable, Equatable {
    /// An identity prefix and the provider user id or email after it.
    public struct Identity: Sendable, Equatable {
        /// The identity kinds, by their prefix.
        public enum Kind: String, Sendable, Equatable, CaseIterable {
            /// `tw:` + Twitter user id.
            case twitter = "tw"
            /// `fb:` + Facebook user id.
            case facebook = "fb"
            /// `gp:` + Google+ user id.
            case googlePlus = "gp"
            /// `ln:` + LinkedIn member id.
            case linkedIn = "ln"
            /// `gh:` + GitHub user id.
            case gitHub = "gh"
            /// The login email; matched case-insensitively by the store.
            case email = "email"
        }

        /// Which identity.
        public var kind: Kind
        /// The provider user id or email, as sent.
        public var value: String

        /// An identity.
        public init(kind: Kind, value: String) {
            self.kind = kind
            self.value = value
        }
    }

    /// Plain entries: object ids (an `<entity>/` prefix removed), in order.
    public var objectIDs: [String]
    /// Prefixed entries with a known prefix, in order. They select users only; for other entities the
    /// store ignores them (§6.2).
    public var identities: [Identity]

    /// A collection.
    public init(objectIDs: [String] = [], identities: [Identity] = []) {
        self.objectIDs = objectIDs
        self.identities = identities
    }

    /// Parses `tw:12345\nemail:ana@example.com\nuDiuuGIMMQ4O`. Empty entries are skipped; an entry with an
    /// unknown prefix (`xx:...`, which iOS sends for arbitrary identifiers) or a known prefix with nothing
    /// after it is ignored, since it can match no user; a plain entry must be an object id (optionally
    /// `<entity>/<id>`), else `InvalidParameters`. More than `maxEntries` non-empty entries is refused.
    public static func parse(_ text: String, maxEntries: Int, parameter: Int) throws(BQLError) -> BQLCollection {
        var collection = BQLCollection()
        var entries = 0
        for piece in text.utf8.split(separator: UInt8(ascii: "\n")) {
            entries += 1
            guard entries <= maxEntries else {
                throw BQLError(.parameterValue, "Parameter \(parameter + 1) has more than \(maxEntries) entries")
            }
            let entry = String(decoding: piece, as: UTF8.self)
            if let colon = piece.firstIndex(of: UInt8(ascii: ":")) {
                let prefix = String(decoding: piece[piece.startIndex..<colon], as: UTF8.self)
                let value = String(decoding: piece[piece.index(after: colon)...], as: UTF8.self)
                if let kind = Identity.Kind(rawValue: prefix), !value.isEmpty {
                    collection.identities.append(Identity(kind: kind, value: value))
                }
                continue
            }
            guard let id = Identifiers.objectID(fromReference: entry) else {
                throw BQLError(.parameterValue, "Parameter \(parameter + 1) holds an entry that is not an object id")
            }
            collection.objectIDs.append(id)
        }
        return collection
    }
}
