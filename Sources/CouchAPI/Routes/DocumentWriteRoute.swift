import Core
import HTTP

/// `PUT`, `DELETE` and `COPY` of `/{db}/{docid}` (spec §3.3.3–3.3.5) and `POST /{db}` (§3.2.4).
enum DocumentWriteRoute {
    static func handle(_ call: CouchCall, database: String, id segment: PathSegment) throws -> Reply {
        switch call.method {
        case .put: return try put(call, database: database, segment: segment)
        case .delete: return try delete(call, database: database, segment: segment)
        case .copy: return try copy(call, database: database, segment: segment)
        default: throw CouchError.methodNotAllowed(call.route.allowedMethods)
        }
    }

    /// `PUT /{db}/{docid}`: create, update, delete (`_deleted`) or replicate (`new_edits=false`).
    private static func put(_ call: CouchCall, database: String, segment: PathSegment) throws -> Reply {
        let edit = try databaseFirst(call, database) {
            let id = try DocumentID.validate(utf8: segment.bytes, maxLength: call.config.maxDocIdLength)
            try WritePermission.check(call, id: id)
            let queryRev = try call.query.value("rev").map { text throws(CouchError) in try RevID(parsing: text) }
            let newEdits = call.query.value("new_edits")?.lowercased() != "false"
            let headerRev = try DocumentETags.ifMatch(call.request)
            // multipart/related with a boundary: the document and its `follows` attachments (§5.11.1).
            if let boundary = MultipartDocumentWrite.boundary(call.request) {
                let (json, follows) = try MultipartDocumentWrite.read(call, boundary: boundary, replicated: !newEdits)
                return try DocumentWrites.edit(call, id: id, json: json, queryRev: queryRev, headerRev: headerRev,
                                               newEdits: newEdits, follows: follows)
            }
            let bytes = try RequestBodies.read(call.request, limit: call.config.jsonRequestLimit)
            // The usual interactive body is read without a tree; `_users` account documents are checked and
            // rewritten on the tree, and any body the reader does not take is read the general way.
            if newEdits, call.route.database != UsersDatabase.name,
               let document = SingleDocumentReader.read(bytes, maxDocIDLength: call.config.maxDocIdLength) {
                return try DocumentWrites.edit(call, id: id, document: document, queryRev: queryRev, headerRev: headerRev)
            }
            return try DocumentWrites.edit(call, id: id, json: try CouchJSON.parseRequest(bytes), queryRev: queryRev,
                                           headerRev: headerRev, newEdits: newEdits)
        }
        // 200 for a deletion, 201 otherwise (CouchDB's `update_doc` status).
        return DocumentWrites.submit(call, database: database, edit: edit, location: true, batch: isBatch(call)) {
            $0 ? .ok : .created
        }
    }

    /// `POST /{db}`: a document with a server id unless the body names one; 201 even for a deletion.
    static func post(_ call: CouchCall, database: String) throws -> Reply {
        let (json, id) = try databaseFirst(call, database) { () throws -> (JSON, String) in
            try RequestBodies.requireJSON(call.request)
            let json = try RequestBodies.json(call.request, limit: call.config.jsonRequestLimit)
            guard case .object = json else { throw CouchError.documentNotObject }
            let input = try DocumentInput(json, maxDocIDLength: call.config.maxDocIdLength)
            return (json, input.id ?? call.context.ids.next())
        }
        // A `_local/` id names a local document, which has no tree (§3.4).
        if DocumentID.isLocal(id) {
            try WritePermission.check(call, id: id)
            return try LocalDocumentRoute.put(call, database: database, id: id, json: json)
        }
        let edit = try databaseFirst(call, database) {
            try WritePermission.check(call, id: id)
            return try DocumentWrites.edit(call, id: id, json: json, queryRev: nil, newEdits: true)
        }
        return DocumentWrites.submit(call, database: database, edit: edit, location: true, batch: isBatch(call)) { _ in
            .created
        }
    }

    /// `?batch=ok` (§5.10): written durably like any write, answered 202 without `rev`.
    private static func isBatch(_ call: CouchCall) -> Bool {
        call.query.value("batch") == "ok"
    }

    /// `DELETE /{db}/{docid}?rev=…`: a tombstone child of that revision, with an empty body and no attachments.
    private static func delete(_ call: CouchCall, database: String, segment: PathSegment) throws -> Reply {
        let rev = try DocumentETags.requestedRev(call)
        guard segment.invalidBytes == nil else { throw CouchError.missing }
        let id = segment.text
        try WritePermission.check(call, id: id)
        if call.route.database == UsersDatabase.name, !DocumentID.isDesign(id) {
            var body = JSONObject()
            try UserWrites.check(call, id: id, body: &body, deleted: true)
        }
        // The document must exist and be live before the revision is looked at (§3.3.4).
        try call.store.read { reader in
            guard let db = try reader.database(named: database) else { throw CouchError.databaseMissing }
            guard let doc = try reader.document(databaseID: db.id, id: id) else { throw CouchError.missing }
            if doc.tree.isDeleted { throw CouchError.deleted }
        }
        let edit = try DocumentEdit(id: id, mode: .interactive(requested: rev), deleted: true, body: JSONObject(),
                                    bodyText: Array("{}".utf8))
        return DocumentWrites.submit(call, database: database, edit: edit, location: false) { _ in .ok }
    }

    /// `COPY /{db}/{docid}` with `Destination: {id}[?rev={rev}]`: an interactive write of the source revision's
    /// body and attachments (same bytes and metadata) to the destination.
    private static func copy(_ call: CouchCall, database: String, segment: PathSegment) throws -> Reply {
        guard let destination = call.request.headers["Destination"]?.trimmingSpaces(), !destination.isEmpty else {
            throw CouchError.badRequest("Destination header is mandatory for COPY.")
        }
        let lower = destination.lowercased()
        if lower.hasPrefix("http://") || lower.hasPrefix("https://") {
            throw CouchError.badRequest("Destination URL must be relative.")
        }
        let (targetID, targetRev) = try parseDestination(destination, call: call)
        if DocumentID.isLocal(targetID) {
            throw CouchError.badRequest("COPY to a _local document is not supported by this server.")
        }
        try WritePermission.check(call, id: targetID)
        let sourceRev = try DocumentETags.requestedRev(call)
        guard segment.invalidBytes == nil else { throw CouchError.missing }
        let sourceID = segment.text
        let source = try call.store.read { reader -> StoredRevision in
            guard let db = try reader.database(named: database) else { throw CouchError.databaseMissing }
            guard let doc = try reader.document(databaseID: db.id, id: sourceID), let winner = doc.tree.winner else {
                throw CouchError.missing
            }
            let rev = sourceRev ?? winner.rev
            if sourceRev == nil, winner.deleted { throw CouchError.deleted }
            guard let stored = try reader.revision(documentRowID: doc.rowID, rev: rev) else { throw CouchError.missing }
            return stored
        }
        guard case .object(let body) = try CouchJSON.parse(source.body) else { throw CouchStoreError.corrupt("stored body") }
        let edit = try DocumentEdit(id: targetID, mode: .interactive(requested: targetRev), deleted: false, body: body,
                                    bodyText: source.body,
                                    attachments: source.attachments.map { .data($0, keepRevpos: true) })
        return DocumentWrites.submit(call, database: database, edit: edit, location: true) { _ in .created }
    }

    /// The target id (decoded like a path segment) and the optional `?rev=` of a `Destination` header.
    private static func parseDestination(_ value: String, call: CouchCall) throws -> (String, RevID?) {
        let parts = value.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let rawID = parts.first ?? ""
        let segment = try PathSegments.decode(String(rawID), plusIsSpace: call.config.decodePlusToSpace)
        let id = try DocumentID.validate(utf8: segment.bytes, maxLength: call.config.maxDocIdLength)
        var rev: RevID?
        if parts.count == 2 {
            let form = (try? FormParameters.parse(parts[1])) ?? FormParameters()
            if let text = form.pairs.last(where: { $0.name == "rev" })?.value { rev = try RevID(parsing: text) }
        }
        return (id, rev)
    }

    /// Runs `prepare` (reading and validating the request); when it fails, a missing database is the answer
    /// instead, as CouchDB opens the database before it looks at the body. The check costs a read, so it is
    /// made only on that path: a write to a database that is gone fails in its job with the same 404.
    static func databaseFirst<T>(_ call: CouchCall, _ database: String, _ prepare: () throws -> T) throws -> T {
        do {
            return try prepare()
        } catch {
            if try !call.store.databaseExists(database) { throw CouchError.databaseMissing }
            throw error
        }
    }
}
