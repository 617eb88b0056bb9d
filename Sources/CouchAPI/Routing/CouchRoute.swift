import HTTP

/// The resource a request addresses, from its decoded path segments (spec §1.4 dispatch table).
enum CouchRoute: Equatable {
    case welcome
    case up
    case allDatabases
    case uuids
    case session
    /// `/{db}`.
    case database(String)
    /// `/{db}/_ensure_full_commit`.
    case ensureFullCommit(String)
    /// `/{db}/_compact`.
    case compact(String)
    /// `/{db}/_compact/{ddoc}`.
    case compactDesign(String, designName: String)
    /// `/{db}/_view_cleanup`.
    case viewCleanup(String)
    /// `/{db}/_revs_limit`.
    case revsLimit(String)
    /// `/{db}/{docid}`, also `_design/{name}`; the id segment may hold bytes that are not UTF-8.
    case document(String, id: PathSegment)
    /// `/{db}/_local/{name}` (the id here includes the prefix).
    case localDocument(String, id: String)
    /// `/{db}/{docid}/{att…}` (attachment names re-joined with `/`).
    case attachment(String, documentID: PathSegment, name: [PathSegment])
    /// A database resource named by its `_` segment (`_all_docs`, `_bulk_docs`, `_changes`, …); the dispatcher
    /// hands it to its route, and those not served yet answer 501.
    case databaseFeature(String, feature: String)
    /// Out of scope (§9): 501.
    case notImplemented(feature: String)

    /// Node and cluster endpoints outside the scope (§9), answered 501 with everything below them.
    static let serverNotImplemented: Set<String> = [
        "_utils", "_config", "_stats", "_active_tasks", "_replicate", "_scheduler", "_node", "_membership",
        "_cluster_setup", "_dbs_info", "_db_updates", "_reshard", "_search_analyze", "_nouveau_analyze",
    ]

    /// Database resources outside the scope: Mango, partitions, clustering, full text.
    static let databaseNotImplemented: Set<String> = [
        "_find", "_index", "_explain", "_partition", "_shards", "_sync_shards", "_purged_infos_limit", "_temp_view",
        "_search_cleanup", "_nouveau_cleanup",
    ]

    /// Database resources of P1 and P2 (see `CouchDispatcher` for those served).
    static let databaseFeatures: Set<String> = [
        "_all_docs", "_design_docs", "_local_docs", "_bulk_docs", "_bulk_get", "_changes", "_revs_diff",
        "_missing_revs", "_security", "_purge",
    ]

    /// Database resources that answer `POST` only (§3.7–3.9, §3.12).
    static let postOnlyFeatures: Set<String> = ["_bulk_docs", "_bulk_get", "_revs_diff", "_missing_revs", "_purge"]

    /// Database resources that answer `GET`, `HEAD` and `POST` (§3.6).
    static let listingFeatures: Set<String> = ["_all_docs", "_design_docs", "_local_docs"]

    /// Resolves the segments. Errors: 400 `illegal_database_name` for other `_`-prefixed first segments,
    /// 400 `bad_request` for `_local` without a name and for attachments of `_local` documents.
    static func resolve(_ segments: [PathSegment]) throws(CouchError) -> CouchRoute {
        guard let first = segments.first else { return .welcome }
        let s0 = first.text
        if segments.count == 1 {
            switch s0 {
            case "_up": return .up
            case "_all_dbs": return .allDatabases
            case "_uuids": return .uuids
            case "_session": return .session
            default: break
            }
        }
        if s0.utf8.first == UInt8(ascii: "_"), s0 != DatabaseName.users {
            if serverNotImplemented.contains(s0) { return .notImplemented(feature: s0) }
            throw .illegalDatabaseName(s0)
        }
        if first.invalidBytes != nil { throw .illegalDatabaseName(s0) }
        let db = s0
        guard segments.count > 1 else { return .database(db) }
        let second = segments[1]
        let s1 = second.text
        let rest = segments.dropFirst(2)
        switch s1 {
        case "_ensure_full_commit" where rest.isEmpty: return .ensureFullCommit(db)
        case "_view_cleanup" where rest.isEmpty: return .viewCleanup(db)
        case "_revs_limit" where rest.isEmpty: return .revsLimit(db)
        case "_compact":
            if rest.isEmpty { return .compact(db) }
            if rest.count == 1, let name = rest.first { return .compactDesign(db, designName: try name.validText()) }
        case "_all_docs", "_design_docs":
            if rest.first?.text == "queries" { return .notImplemented(feature: "\(s1)/queries") }
        case "_design":
            guard let name = rest.first else { break }
            let id = PathSegment(bytes: Array(DocumentID.designPrefix.utf8) + name.bytes)
            let more = rest.dropFirst()
            if more.isEmpty { return .document(db, id: id) }
            if let next = more.first, next.text.utf8.first == UInt8(ascii: "_") {
                return .notImplemented(feature: "_design/{name}/\(next.text)")
            }
            return .attachment(db, documentID: id, name: Array(more))
        case "_local":
            guard let name = rest.first else { throw .badRequest("Invalid _local document id.") }
            guard rest.count == 1 else { throw .localAttachments }
            return .localDocument(db, id: DocumentID.localPrefix + (try name.validText()))
        default:
            break
        }
        // Only `_`-prefixed second segments can name anything but a document.
        if s1.utf8.first == UInt8(ascii: "_") {
            if databaseNotImplemented.contains(s1) { return .notImplemented(feature: s1) }
            if rest.isEmpty, databaseFeatures.contains(s1) { return .databaseFeature(db, feature: s1) }
        }
        // An id sent with its slash encoded (`_design%2Fx`, `_local%2Fx`) addresses that document directly.
        if s1.utf8.starts(with: DocumentID.localPrefix.utf8) {
            guard rest.isEmpty else { throw .localAttachments }
            guard s1.utf8.count > DocumentID.localPrefix.utf8.count else { throw .badRequest("Invalid _local document id.") }
            return .localDocument(db, id: try second.validText())
        }
        if rest.isEmpty { return .document(db, id: second) }
        return .attachment(db, documentID: second, name: Array(rest))
    }

    /// The methods the resource answers, in CouchDB's spelling for `Allow` and "Only … allowed".
    var allowedMethods: String {
        switch self {
        case .welcome, .up, .uuids, .allDatabases: return "GET,HEAD"
        case .session: return "GET,HEAD,POST,DELETE"
        case .database: return "DELETE,GET,HEAD,POST,PUT"
        case .ensureFullCommit, .compact, .compactDesign, .viewCleanup: return "POST"
        case .revsLimit: return "GET,HEAD,PUT"
        case .document: return "DELETE,GET,HEAD,PUT,COPY"
        case .localDocument: return "DELETE,GET,HEAD,PUT"
        case .attachment: return "DELETE,GET,HEAD,PUT"
        case .databaseFeature(_, let feature) where Self.postOnlyFeatures.contains(feature): return "POST"
        case .databaseFeature(_, "_security"): return "GET,HEAD,PUT"
        case .databaseFeature, .notImplemented: return "GET,HEAD,POST"
        }
    }

    /// Whether `method` is one the resource answers (`HEAD` wherever `GET` is). Resources answered 501
    /// answer it to every method. (A switch, not a search of `allowedMethods`: this runs on every request.)
    func allows(_ method: HTTPMethod) -> Bool {
        let get = method == .get || method == .head
        switch self {
        case .databaseFeature(_, let feature) where Self.postOnlyFeatures.contains(feature): return method == .post
        case .databaseFeature(_, let feature) where Self.listingFeatures.contains(feature): return get || method == .post
        case .databaseFeature(_, "_security"): return get || method == .put
        case .databaseFeature, .notImplemented: return true
        case .welcome, .up, .uuids, .allDatabases: return get
        case .session: return get || method == .post || method == .delete
        case .database: return get || method == .post || method == .put || method == .delete
        case .ensureFullCommit, .compact, .compactDesign, .viewCleanup: return method == .post
        case .revsLimit: return get || method == .put
        case .document: return get || method == .put || method == .delete || method == .copy
        case .localDocument, .attachment: return get || method == .put || method == .delete
        }
    }

    /// The database the route belongs to, if any.
    var database: String? {
        switch self {
        case .welcome, .up, .allDatabases, .uuids, .session, .notImplemented: return nil
        case .database(let db), .ensureFullCommit(let db), .compact(let db), .compactDesign(let db, _),
             .viewCleanup(let db), .revsLimit(let db), .document(let db, _), .localDocument(let db, _),
             .attachment(let db, _, _), .databaseFeature(let db, _):
            return db
        }
    }
}
