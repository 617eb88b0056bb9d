import Core

/// The `couch` section of the configuration (spec §1.5; keys camelCase, flat, per the product's naming rule).
/// The server admin is the product's (`admin.user`, `admin.password`), not a Couch setting.
public struct CouchConfig: Sendable, Equatable {
    /// Serve the Couch API at all.
    public var enabled = true
    /// Mount on the main listener.
    public var mountPath = "/couch"
    /// `host:port` of the optional root listener (the same API at `/`); nil: off.
    public var rootListen: (host: String, port: Int)?
    /// `AuthSession` cookie lifetime in seconds.
    public var sessionTimeout = 600
    /// `SameSite` attribute of the cookie (`Lax`, `Strict`, `None`); nil: not sent.
    public var cookieSameSite: String?
    /// Largest JSON document body in bytes (§4.9).
    public var maxDocumentSize = 8 << 20
    /// Largest attachment, stored bytes (§4.9).
    public var maxAttachmentSize = 256 << 20
    /// Largest request body in bytes, after decoding (§4.9).
    public var maxRequestSize = 1 << 30
    /// Largest JSON request body in bytes, after decoding: every body but an attachment `PUT` and a
    /// `multipart/related` document write, which stream to blobs under `maxRequestSize` (§4.9).
    ///
    /// Why 64 MiB: a JSON body is decoded whole, and the costliest shape, `_bulk_docs` of 10,000 documents of
    /// many short strings, peaked at 5.8 bytes of RSS per byte of body (740 MB for 126 MiB, the pages of the
    /// database it wrote included; documents with large inline base64 attachments: 2.2 bytes per byte; see
    /// docs/performance.md, "Memory under large bodies"). So a body of `maxRequestSize` (1 GiB) would take several GB alone, while 64 MiB stays under
    /// 500 MB, and the decoding budget lets no second one be decoded beside it. 64 MiB is also what
    /// CouchDB 2.0 allowed for any request (its `max_document_size`, later `max_http_request_size`),
    /// so PouchDB (`batch_size` 100 documents per `_bulk_docs`, attachments inline as base64) and the
    /// replicators, which send documents with attachments as multipart PUTs, fit in it.
    public var maxJsonRequestSize = Self.defaultMaxJsonRequestSize
    /// The default of `maxJsonRequestSize`.
    public static let defaultMaxJsonRequestSize = 64 << 20
    /// Longest document id in bytes (§4.3).
    public var maxDocIdLength = DocumentID.defaultMaxLength
    /// Most ids one `/_uuids` request may ask for.
    public var uuidsMaxCount = 1000
    /// Most elements in one `_bulk_docs` request (§4.9).
    public var maxBulkDocs = 10000
    /// Most entries in one `_bulk_get` request (§4.9).
    public var maxBulkGet = 10000
    /// Most parts, the JSON document's included, in one multipart/related document write (§5.11.1).
    public var maxMultipartParts = 1000
    /// Media types stored gzip-encoded (`*` wildcards), CouchDB's `compressible_types` (§4.7).
    public var attachmentCompressibleTypes = AttachmentCompression.couchDBTypes
    /// zlib level for them, 1…9; 0 stores every attachment as received (CouchDB's `compression_level`).
    public var attachmentCompressionLevel = AttachmentCompression.couchDBLevel
    /// Most document ids in one `_purge` request (§3.12).
    public var maxPurgeDocuments = 100
    /// Most revisions, over all ids, in one `_purge` request (§3.12).
    public var maxPurgeRevisions = 1000
    /// `+` in a path segment means a space (§1.4).
    public var decodePlusToSpace = true
    /// Origins allowed by CORS (§2.9); empty: CORS off; `*`: any.
    public var corsOrigins: [String] = []
    /// `Access-Control-Allow-Credentials: true` for listed origins (never with `*`).
    public var corsCredentials = false
    /// Send `WWW-Authenticate: Basic realm="quartet"` with 401s.
    public var wwwAuthenticate = false
    /// Default and largest wait of a `_changes` feed, and largest heartbeat interval, in ms (§3.11.6).
    public var changesTimeout = 60_000
    /// Most `_changes` long polls, and separately most open continuous/eventsource feeds, of one user
    /// (beyond: 503, so one client cannot take all the server's memory).
    public var maxFeedsPerUser = 20_000
    /// PBKDF2-HMAC-SHA256 iterations for new `_users` password hashes (§3.10).
    public var passwordIterations = 100_000
    /// Seconds a verified user password is remembered (§2.7.2).
    public var authCacheTtl = 300
    /// A database whose `_security` lists no members is public, as in CouchDB (Decision §2.8: false, admin-only).
    public var publicWhenMembersEmpty = false
    /// Anonymous callers may create `_users` accounts (Decision §3.10: false).
    public var usersPublicSignup = false

    /// The defaults.
    public init() {}

    static let knownKeys: Set<String> = [
        "enabled", "mountPath", "rootListen", "sessionTimeout", "cookieSameSite", "maxDocumentSize",
        "maxAttachmentSize", "maxRequestSize", "maxJsonRequestSize", "maxDocIdLength", "uuidsMaxCount", "maxBulkDocs", "maxBulkGet", "maxMultipartParts", "maxPurgeDocuments",
        "attachmentCompressibleTypes", "attachmentCompressionLevel",
        "maxPurgeRevisions", "decodePlusToSpace",
        "corsOrigins", "corsCredentials", "wwwAuthenticate", "changesTimeout", "maxFeedsPerUser",
        "passwordIterations", "authCacheTtl", "publicWhenMembersEmpty", "usersPublicSignup",
    ]

    /// Reads and validates the section; throws `ConfigError` naming `couch.<key>`.
    public init(_ values: JSONObject) throws {
        let section = ConfigSection(values, path: "couch")
        try section.rejectUnknownKeys(Self.knownKeys)
        enabled = try section.bool("enabled", true)
        mountPath = try section.string("mountPath") ?? mountPath
        guard mountPath.hasPrefix("/"), mountPath.count > 1,
              !mountPath.contains("?"), !mountPath.contains("%"), !mountPath.contains("//") else {
            throw section.fail("mountPath", "must be a path like /couch (not the root)")
        }
        if let listen = try section.string("rootListen"), !listen.isEmpty {
            guard let parsed = Self.hostPort(listen) else {
                throw section.fail("rootListen", "must be host:port, such as 127.0.0.1:5984")
            }
            rootListen = parsed
        }
        let cap = Int(Int32.max)
        sessionTimeout = try section.int("sessionTimeout", 600, min: 1, max: cap)
        if let sameSite = try section.string("cookieSameSite"), !sameSite.isEmpty {
            guard ["Lax", "Strict", "None"].contains(sameSite) else {
                throw section.fail("cookieSameSite", "must be Lax, Strict or None")
            }
            cookieSameSite = sameSite
        }
        maxDocumentSize = try section.int("maxDocumentSize", 8 << 20, min: 1024, max: Int.max)
        maxAttachmentSize = try section.int("maxAttachmentSize", 256 << 20, min: 0, max: Int.max)
        maxRequestSize = try section.int("maxRequestSize", 1 << 30, min: 1024, max: Int.max)
        maxJsonRequestSize = try section.int("maxJsonRequestSize", Self.defaultMaxJsonRequestSize, min: 1024, max: Int.max)
        maxDocIdLength = try section.int("maxDocIdLength", DocumentID.defaultMaxLength, min: 16, max: 1 << 20)
        uuidsMaxCount = try section.int("uuidsMaxCount", 1000, min: 1, max: 1_000_000)
        maxBulkDocs = try section.int("maxBulkDocs", 10000, min: 1, max: 1_000_000)
        maxBulkGet = try section.int("maxBulkGet", 10000, min: 1, max: 1_000_000)
        maxMultipartParts = try section.int("maxMultipartParts", 1000, min: 1, max: 1_000_000)
        attachmentCompressibleTypes = try section.stringList("attachmentCompressibleTypes", AttachmentCompression.couchDBTypes)
        attachmentCompressionLevel = try section.int("attachmentCompressionLevel", AttachmentCompression.couchDBLevel, min: 0, max: 9)
        maxPurgeDocuments = try section.int("maxPurgeDocuments", 100, min: 1, max: 1_000_000)
        maxPurgeRevisions = try section.int("maxPurgeRevisions", 1000, min: 1, max: 1_000_000)
        decodePlusToSpace = try section.bool("decodePlusToSpace", true)
        corsOrigins = try section.stringList("corsOrigins", [])
        corsCredentials = try section.bool("corsCredentials", false)
        if corsCredentials, corsOrigins.contains("*") {
            throw section.fail("corsCredentials", "cannot be true while corsOrigins contains \"*\"")
        }
        wwwAuthenticate = try section.bool("wwwAuthenticate", false)
        changesTimeout = try section.int("changesTimeout", 60_000, min: 100, max: 86_400_000)
        maxFeedsPerUser = try section.int("maxFeedsPerUser", 20_000, min: 1, max: 10_000_000)
        // At least 1000 rounds (below, a stolen hash is cheap to attack); at most what one login can afford.
        passwordIterations = try section.int("passwordIterations", 100_000, min: 1000, max: UserAccount.maxIterations)
        authCacheTtl = try section.int("authCacheTtl", 300, min: 0, max: 86_400)
        publicWhenMembersEmpty = try section.bool("publicWhenMembersEmpty", false)
        usersPublicSignup = try section.bool("usersPublicSignup", false)
    }

    /// `host:port` (IPv6 hosts in brackets) with a port in 0…65535; nil otherwise.
    static func hostPort(_ text: String) -> (host: String, port: Int)? {
        guard let colon = text.lastIndex(of: ":") else { return nil }
        var host = String(text[..<colon])
        guard let port = Int(text[text.index(after: colon)...]), (0...65535).contains(port), !host.isEmpty else {
            return nil
        }
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        return (host, port)
    }

    public static func == (a: CouchConfig, b: CouchConfig) -> Bool {
        a.enabled == b.enabled && a.mountPath == b.mountPath && a.rootListen?.host == b.rootListen?.host
            && a.rootListen?.port == b.rootListen?.port && a.sessionTimeout == b.sessionTimeout
            && a.cookieSameSite == b.cookieSameSite && a.maxDocumentSize == b.maxDocumentSize
            && a.maxAttachmentSize == b.maxAttachmentSize && a.maxRequestSize == b.maxRequestSize
            && a.maxJsonRequestSize == b.maxJsonRequestSize
            && a.maxDocIdLength == b.maxDocIdLength && a.uuidsMaxCount == b.uuidsMaxCount
            && a.maxBulkDocs == b.maxBulkDocs && a.maxBulkGet == b.maxBulkGet && a.maxMultipartParts == b.maxMultipartParts
            && a.maxPurgeDocuments == b.maxPurgeDocuments && a.maxPurgeRevisions == b.maxPurgeRevisions
            && a.decodePlusToSpace == b.decodePlusToSpace && a.corsOrigins == b.corsOrigins
            && a.corsCredentials == b.corsCredentials && a.wwwAuthenticate == b.wwwAuthenticate
            && a.attachmentCompressibleTypes == b.attachmentCompressibleTypes
            && a.attachmentCompressionLevel == b.attachmentCompressionLevel
            && a.changesTimeout == b.changesTimeout && a.maxFeedsPerUser == b.maxFeedsPerUser
            && a.passwordIterations == b.passwordIterations && a.authCacheTtl == b.authCacheTtl
            && a.publicWhenMembersEmpty == b.publicWhenMembersEmpty && a.usersPublicSignup == b.usersPublicSignup
    }
}

extension CouchConfig {
    /// The limit of a JSON body: `maxJsonRequestSize`, never above `maxRequestSize`.
    var jsonRequestLimit: Int { min(maxJsonRequestSize, maxRequestSize) }

    /// Which attachments are stored gzip-encoded.
    var attachmentCompression: AttachmentCompression {
        AttachmentCompression(types: attachmentCompressibleTypes, level: attachmentCompressionLevel)
    }
}
