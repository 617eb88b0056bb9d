import HTTP

/// Hands an authorized call to the handler of its resource (one file per resource under `Routes/`).
enum CouchDispatcher {
    static func run(_ call: CouchCall) throws -> Reply {
        switch call.route {
        case .welcome: return .response(call.finish(ServerRoutes.welcome(call)))
        case .up: return .response(call.finish(ServerRoutes.up()))
        case .allDatabases: return .response(call.finish(try ServerRoutes.allDatabases(call)))
        case .uuids: return .response(call.finish(try ServerRoutes.uuids(call)))
        case .session: return .response(call.finish(try SessionRoute.handle(call)))
        case .database: return try DatabaseRoute.handle(call)
        case .ensureFullCommit, .compact, .compactDesign, .viewCleanup, .revsLimit:
            return .response(call.finish(try DatabaseMaintenanceRoutes.handle(call)))
        case .document(let db, let id):
            if call.method == .get || call.method == .head {
                return .response(call.finish(try DocumentReadRoute.handle(call, database: db, id: id)))
            }
            return try DocumentWriteRoute.handle(call, database: db, id: id)
        case .localDocument(let db, let id):
            return try LocalDocumentRoute.handle(call, database: db, id: id)
        case .attachment(let db, let id, let name):
            if call.method == .get || call.method == .head {
                return .response(call.finish(try AttachmentReadRoute.handle(call, database: db, documentID: id, name: name)))
            }
            return try AttachmentWriteRoute.handle(call, database: db, documentID: id, name: name)
        case .databaseFeature(let db, let feature):
            switch feature {
            case "_all_docs": return .response(call.finish(try AllDocsRoute.handle(call, database: db, index: .all)))
            case "_design_docs": return .response(call.finish(try AllDocsRoute.handle(call, database: db, index: .design)))
            case "_local_docs": return .response(call.finish(try AllDocsRoute.handle(call, database: db, index: .local)))
            case "_bulk_docs": return try BulkDocsRoute.handle(call, database: db)
            case "_bulk_get": return .response(call.finish(try BulkGetRoute.handle(call, database: db)))
            case "_revs_diff": return .response(call.finish(try RevsDiffRoute.handle(call, database: db, form: .revsDiff)))
            case "_missing_revs":
                return .response(call.finish(try RevsDiffRoute.handle(call, database: db, form: .missingRevs)))
            case "_purge": return try PurgeRoute.handle(call, database: db)
            case "_changes": return try ChangesRoute.handle(call, database: db)
            case "_security": return .response(call.finish(try SecurityRoute.handle(call, database: db)))
            default: throw CouchError.notImplemented(feature)
            }
        case .notImplemented(let feature):
            throw CouchError.notImplemented(feature)
        }
    }
}
