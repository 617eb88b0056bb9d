/// The errors of spec §2.6 with their exact texts. Reasons marked *(wording free)* in the spec are the
/// ones whose text is ours; every other reason is CouchDB 3.3's, byte for byte.
extension CouchError {
    // MARK: 400 bad_request

    /// 400 `bad_request` with the given reason.
    public static func badRequest(_ reason: String) -> CouchError {
        CouchError(status: 400, error: "bad_request", reason: reason)
    }

    /// Every JSON parse failure (CouchDB uses this one text for all of them, whatever the cause).
    public static let invalidJSON = badRequest("invalid UTF-8 JSON")
    /// Decision §2.3: an object naming a key twice.
    public static let duplicateKey = badRequest("Duplicate key in JSON object.")
    /// A revision id that breaks §4.4.
    public static let invalidRevFormat = badRequest("Invalid rev format")
    /// A revision list (`open_revs`, `atts_since`, `_revs_diff` values) that is not an array.
    public static let invalidRevList = badRequest("Invalid list of revisions")
    /// A document body that is not a JSON object.
    public static let documentNotObject = badRequest("Document must be a JSON object")
    /// A request body that is not a JSON object (`_bulk_docs`, `_bulk_get`, `_revs_diff`, …).
    public static let requestBodyNotObject = badRequest("Request body must be a JSON object")
    /// `new_edits=false` without `_rev` or `_revisions`.
    public static let newEditsFalseNeedsRev =
        badRequest("When `new_edits: false`, the document needs `_rev` or `_revisions` specified")
    /// `_attachments` in the body of a `_local` document (§3.4).
    public static let localAttachments = badRequest("_local documents do not accept attachments.")

    // MARK: 400 illegal_docid, doc_validation, database names

    /// 400 `illegal_docid` with the given reason (§4.3).
    public static func illegalDocID(_ reason: String) -> CouchError {
        CouchError(status: 400, error: "illegal_docid", reason: reason)
    }

    /// 400 `doc_validation` with the given reason (§4.6).
    public static func docValidation(_ reason: String) -> CouchError {
        CouchError(status: 400, error: "doc_validation", reason: reason)
    }

    /// 400 `doc_validation` "Bad special document member: {name}" (`name` includes its leading `_`).
    public static func badSpecialMember(_ name: String) -> CouchError {
        docValidation("Bad special document member: \(name)")
    }

    /// 400 `illegal_database_name` for `name` as received (§4.2).
    public static func illegalDatabaseName(_ name: String) -> CouchError {
        CouchError(status: 400, error: "illegal_database_name",
                   reason: "Name: '\(name)'. Only lowercase characters (a-z), digits (0-9), and any of the "
                       + "characters _, $, (, ), +, -, and / are allowed. Must begin with a letter.")
    }

    /// 400 `database_name_too_long` for `name` as received (§4.2).
    public static func databaseNameTooLong(_ name: String) -> CouchError {
        CouchError(status: 400, error: "database_name_too_long",
                   reason: "At least one path segment of `\(name)` is too long.")
    }

    // MARK: 401, 403, 405, 415, 429, 501

    /// 401 with the given reason (§2.7, §2.8).
    public static func unauthorized(_ reason: String) -> CouchError {
        CouchError(status: 401, error: "unauthorized", reason: reason)
    }

    /// 401 for wrong or undecodable credentials, on every endpoint (§2.7.2).
    public static let badCredentials = unauthorized("Name or password is incorrect.")

    /// 403 `forbidden` with the given reason (§2.8).
    public static func forbidden(_ reason: String) -> CouchError {
        CouchError(status: 403, error: "forbidden", reason: reason)
    }

    /// 405 "Only {METHODS} allowed" (§2.1); the caller adds `Allow`.
    public static func methodNotAllowed(_ allowed: String) -> CouchError {
        CouchError(status: 405, error: "method_not_allowed", reason: "Only \(allowed) allowed")
    }

    /// 415 `bad_content_type` with the given reason (§2.3).
    public static func badContentType(_ reason: String) -> CouchError {
        CouchError(status: 415, error: "bad_content_type", reason: reason)
    }

    /// 429 for a client address over its failed-login limit. *(wording ours: CouchDB has no such limit)*
    public static let tooManyLoginFailures = CouchError(status: 429, error: "too_many_requests",
                                                        reason: "Too many failed login attempts. Try again later.")

    /// 501 `not_implemented` for a feature outside the server's scope (§9). *(wording free)*
    public static func notImplemented(_ feature: String) -> CouchError {
        CouchError(status: 501, error: "not_implemented", reason: "\(feature) is not supported by this server.")
    }

    // MARK: 404, 409, 412, 413

    /// 404 `not_found` "missing": unknown document or revision.
    public static let missing = CouchError(status: 404, error: "not_found", reason: "missing")
    /// 404 `not_found` "deleted": the winner is a tombstone.
    public static let deleted = CouchError(status: 404, error: "not_found", reason: "deleted")
    /// 404 `not_found` "Database does not exist."
    public static let databaseMissing = CouchError(status: 404, error: "not_found", reason: "Database does not exist.")
    /// 409 `conflict` "Document update conflict." (§5.3).
    public static let conflict = CouchError(status: 409, error: "conflict", reason: "Document update conflict.")
    /// 409 `not_found` "missing_rev": attachment `PUT`/`DELETE` naming an unknown revision (§3.5.3).
    public static let missingRev = CouchError(status: 409, error: "not_found", reason: "missing_rev")
    /// 412 `file_exists`: `PUT /{db}` of an existing database.
    public static let fileExists = CouchError(status: 412, error: "file_exists",
                                              reason: "The database could not be created, the file already exists.")

    /// 412 `missing_stub` for attachment `name` of document `docID` (§5.6).
    public static func missingStub(docID: String, name: String) -> CouchError {
        CouchError(status: 412, error: "missing_stub", reason: "Invalid attachment stub in \(docID) for \(name)")
    }

    /// 414 `too_long`: a request target past the limit.
    public static let tooLong = CouchError(status: 414, error: "too_long", reason: "the request uri is too long")

    /// 413 `too_large` (§4.9).
    public static let tooLarge = CouchError(status: 413, error: "too_large", reason: "the request entity is too large")

    /// 413 `attachment_too_large`: the reason is the attachment's name (§4.9).
    public static func attachmentTooLarge(_ name: String) -> CouchError {
        CouchError(status: 413, error: "attachment_too_large", reason: name)
    }

    // MARK: 500

    /// 500 for bugs and storage failures. *(wording free)* The cause goes to the log, never here.
    public static let internalError = CouchError(status: 500, error: "unknown_error", reason: "Internal server error.")
}
