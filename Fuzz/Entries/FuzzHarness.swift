/// The parsers under fuzzing, one case per harness. The libFuzzer driver (`make fuzz`) and the corpus
/// replay tests (`make test`) call the same `run`, so a corpus file that once found a bug keeps testing the
/// same code path in the ordinary suite.
public enum FuzzHarness: String, CaseIterable, Sendable {
    case httpRequest = "http-request"
    case httpChunked = "http-chunked"
    case multipart
    case form
    case json
    case parseWhere = "parse-where"
    case regex
    case datastoreChanges = "datastore-changes"
    case couchDocument = "couch-document"
    case couchChanges = "couch-changes"
    case couchAllDocs = "couch-all-docs"
    case couchMultipart = "couch-multipart"
    case couchBulkDocs = "couch-bulk-docs"
    case couchSession = "couch-session"
    case byteRanges = "byte-ranges"
    case imageRequest = "image-request"
    case gzipBody = "gzip-body"
    case backbeamBQL = "backbeam-bql"
    case backbeamParameters = "backbeam-parameters"

    /// Feeds `input` to the harness's parser. `workDirectory` holds what a parser writes (multipart spool
    /// files, the Parse schema database); it must exist.
    public func run(_ input: [UInt8], workDirectory: String) -> FuzzOutcome {
        switch self {
        case .httpRequest: return HTTPFuzz.request(input)
        case .httpChunked: return HTTPFuzz.chunked(input)
        case .multipart: return HTTPFuzz.multipart(input, tempDirectory: workDirectory)
        case .form: return HTTPFuzz.form(input)
        case .json: return CoreFuzz.json(input)
        case .parseWhere: return ParseFuzz.compileWhere(input, workDirectory: workDirectory)
        case .regex: return QueryKitFuzz.regex(input)
        case .datastoreChanges: return DatastoreFuzz.changes(input)
        case .couchDocument: return CouchFuzz.document(input)
        case .couchChanges: return CouchFuzz.changes(input)
        case .couchAllDocs: return CouchFuzz.allDocs(input)
        case .couchMultipart: return CouchFuzz.multipart(input)
        case .couchBulkDocs: return CouchFuzz.bulkDocs(input)
        case .couchSession: return CouchFuzz.session(input)
        case .byteRanges: return RangeFuzz.ranges(input)
        case .imageRequest: return ImageRequestFuzz.request(input)
        case .gzipBody: return GzipFuzz.body(input)
        case .backbeamBQL: return BackbeamFuzz.bql(input)
        case .backbeamParameters: return BackbeamFuzz.parameters(input)
        }
    }
}

/// What one input did. A trap never returns, so it is not a case: libFuzzer reports it as a crash and the
/// replay test process dies on it.
public enum FuzzOutcome: Sendable, Equatable {
    /// The parser returned a value.
    case accepted
    /// The parser refused the input with its own typed error (the description is kept for messages).
    case refused(String)
    /// Something the parser's contract rules out: an error of a foreign type, or a value that breaks an
    /// invariant checked here (a serialised result that does not parse again, for instance). The driver
    /// turns it into a crash so that libFuzzer keeps the input.
    case violated(String)
}

extension FuzzOutcome {
    /// Combines the outcomes of several parsers fed from one input: the first violation wins, then any
    /// acceptance.
    static func all(_ outcomes: [FuzzOutcome]) -> FuzzOutcome {
        if let violation = outcomes.first(where: { if case .violated = $0 { return true } else { return false } }) {
            return violation
        }
        return outcomes.first(where: { $0 == .accepted }) ?? outcomes.first ?? .accepted
    }
}

/// Splits fuzz input into pieces so one input can drive a parser with several arguments.
enum FuzzInput {
    /// The bytes before the first `separator` and those after it (all bytes and nothing when it is absent).
    static func split(_ input: [UInt8], at separator: UInt8) -> ([UInt8], [UInt8]) {
        guard let index = input.firstIndex(of: separator) else { return (input, []) }
        return (Array(input[..<index]), Array(input[(index + 1)...]))
    }
}

extension FuzzHarness {
    /// Closes what the harnesses opened in `workDirectory` (the Parse database), so it can be removed.
    public static func closeResources(workDirectory: String) {
        ParseFuzzDatabase.close(workDirectory)
    }
}
