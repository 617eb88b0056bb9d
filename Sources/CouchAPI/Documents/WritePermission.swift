import Core
import HTTP

/// The per-document part of authorization for writes (spec §2.8): design documents need a db admin, and in a
/// database whose design documents define `validate_doc_update` (which cannot run here) every write by a
/// caller below db admin is refused — Decision §2.8, fail closed. `_local` documents are outside both rules,
/// as in CouchDB.
enum WritePermission {
    /// The reason given when a validation function would have had to run.
    static let validationUnsupported = CouchError.forbidden("validate_doc_update functions are not supported by this server")

    /// Throws when the caller may not write document `id` in the addressed database.
    static func check(_ call: CouchCall, id: String) throws(CouchError) {
        if let error = refusal(call, id: id) { throw error }
    }

    /// The refusal for writing document `id`, nil when allowed (`_bulk_docs` reports it per element).
    static func refusal(_ call: CouchCall, id: String) -> CouchError? {
        let permissions = call.permissions
        guard !permissions.isDatabaseAdmin else { return nil }
        // In `_users` a caller below the server admin writes account documents only (a sign-up's `POST` could
        // otherwise name a `_local` document).
        if DocumentID.isLocal(id), call.route.database == UsersDatabase.name {
            return call.credentials.name == nil ? .unauthorized("You are not authorized to access this db.")
                : .forbidden("Only the server admin may use this resource of the user database.")
        }
        if DocumentID.isLocal(id) { return nil }
        if DocumentID.isDesign(id) { return Authorization.notDatabaseAdmin(call.credentials) }
        if permissions.validatesUpdates { return validationUnsupported }
        return nil
    }
}

/// `If-Match` on document writes (spec §3.3.3–3.3.5).
enum DocumentETags {
    /// The revision of an `If-Match` header (quotes, and a weak `W/` prefix, stripped); nil without one.
    /// A malformed revision is 400 "Invalid rev format".
    static func ifMatch(_ request: HTTPRequest) throws(CouchError) -> RevID? {
        guard let value = request.headers["If-Match"], !value.trimmingSpaces().isEmpty else { return nil }
        return try RevID(parsing: unquoted(value))
    }

    /// `?rev=` or `If-Match` (they must agree): the revision a `DELETE`, a `COPY` source or an attachment
    /// write names.
    static func requestedRev(_ call: CouchCall) throws(CouchError) -> RevID? {
        let query = try call.query.value("rev").map { text throws(CouchError) in try RevID(parsing: text) }
        return try reconcile(explicit: query, header: try ifMatch(call.request))
    }

    /// The parent an edit names: the explicit revision (body `_rev`/`_revisions`, else `?rev=`) or `If-Match`
    /// when there is none; both present and different is CouchDB's 400.
    static func reconcile(explicit: RevID?, header: RevID?) throws(CouchError) -> RevID? {
        guard let header else { return explicit }
        guard let explicit else { return header }
        guard explicit == header else { throw CouchError.badRequest("Document rev and etag have different values") }
        return explicit
    }

    private static func unquoted(_ value: String) -> String {
        var tag = Substring(value.trimmingSpaces())
        if tag.hasPrefix("W/") { tag = tag.dropFirst(2) }
        if tag.count >= 2, tag.first == "\"", tag.last == "\"" { tag = tag.dropFirst().dropLast() }
        return String(tag)
    }
}
